import torch
import torch.distributed as dist

from model import Transformer
from parallel import apply_fsdp


def build_model_and_optimizer(cfg, mesh):
    model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)  # expect: FSD202
    if dist.get_world_size() == 1:
        return model.cuda(), optimizer
    apply_fsdp(model, mesh)
    return model, optimizer
