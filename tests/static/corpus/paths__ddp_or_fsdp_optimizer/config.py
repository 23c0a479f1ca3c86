from dataclasses import dataclass


@dataclass
class TrainConfig:
    strategy: str = "fsdp"
    lr: float = 3e-4
    weight_decay: float = 0.1
    vocab_size: int = 32000
    dim: int = 2048
    n_layers: int = 24
