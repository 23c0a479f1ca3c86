from dataclasses import dataclass

import torch

from dist_utils import init_distributed
from model import Transformer
from wrapping import clip_gradients, wrap_model


@dataclass
class Config:
    fsdp_version: int = 2
    max_grad_norm: float = 1.0


def train(cfg: Config, loader):
    mesh = init_distributed()
    model = wrap_model(Transformer(32000, 1024, 12), cfg, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    for tokens in loader:
        model(tokens).mean().backward()
        clip_gradients(model, cfg)
        optimizer.step()
        optimizer.zero_grad()
