import torch
import torch.distributed as dist

from model import Transformer
from parallel import apply_fsdp


def build_model_and_optimizer(cfg, mesh):
    model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
    if dist.get_world_size() == 1:
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        return model.cuda(), optimizer
    apply_fsdp(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    return model, optimizer
