from dataclasses import dataclass

import torch

from builder import setup_models
from dist_utils import init_distributed


@dataclass
class Config:
    vocab_size: int = 32000
    dim: int = 1024
    n_layers: int = 12
    ema_decay: float = 0.999


@torch.no_grad()
def evaluate(model, ema, loader):
    losses = []
    for tokens in loader:
        logits = ema.forward(tokens)
        losses.append(logits.log_softmax(-1).mean())
    return torch.stack(losses).mean()


def main(train_loader, val_loader):
    cfg = Config()
    mesh = init_distributed()
    model, ema = setup_models(cfg, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for tokens in train_loader:
        model(tokens).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    return evaluate(model, ema, val_loader)
