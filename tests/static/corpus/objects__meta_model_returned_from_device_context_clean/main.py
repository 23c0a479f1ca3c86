from dataclasses import dataclass

from setup import init_distributed, setup
from trainer import train


@dataclass
class Config:
    vocab_size: int = 32000
    dim: int = 1024
    n_layers: int = 16
    lr: float = 3e-4
    max_steps: int = 10_000


def main(loader):
    cfg = Config()
    mesh = init_distributed()
    model, optimizer = setup(cfg, mesh)
    train(model, optimizer, loader, cfg.max_steps)
