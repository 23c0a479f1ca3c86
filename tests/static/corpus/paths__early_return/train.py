from dataclasses import dataclass

from builder import build_model_and_optimizer
from dist_utils import init_distributed


@dataclass
class ModelConfig:
    vocab_size: int = 32000
    dim: int = 1024
    n_layers: int = 12
    lr: float = 3e-4


def main():
    mesh = init_distributed()
    model, optimizer = build_model_and_optimizer(ModelConfig(), mesh)
    return model, optimizer
