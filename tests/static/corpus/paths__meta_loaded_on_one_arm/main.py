from dataclasses import dataclass
from typing import Optional

from setup import init_distributed, setup
from trainer import train


@dataclass
class Config:
    vocab_size: int = 32000
    dim: int = 1024
    n_layers: int = 16
    lr: float = 3e-4
    max_steps: int = 10_000
    init_from: Optional[str] = None


def main(loader, init_from=None):
    cfg = Config(init_from=init_from)
    mesh = init_distributed()
    model, optimizer = setup(cfg, mesh)
    train(model, optimizer, loader, cfg.max_steps)
