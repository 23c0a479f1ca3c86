from dataclasses import dataclass


@dataclass
class TrainConfig:
    vocab_size: int = 32000
    dim: int = 2048
    n_layers: int = 24
    lr: float = 3e-4
    weight_decay: float = 0.1
    max_steps: int = 10000
