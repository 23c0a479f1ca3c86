import torch
from torch.distributed.fsdp import fully_shard

from language_model import LanguageModel
from multimodal import MultimodalModel


def build_model(cfg, mesh):
    with torch.device("meta"):
        model = MultimodalModel(LanguageModel(cfg.dim, cfg.n_layers, cfg.vocab_size), cfg.feature_dim, cfg.dim)
    for module in model.modules():
        if isinstance(module, torch.nn.ModuleList):
            for layer in module:
                fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    model.to_empty(device="cuda")
    return model
