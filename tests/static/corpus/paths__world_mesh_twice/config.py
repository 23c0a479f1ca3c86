from dataclasses import dataclass


@dataclass
class JobConfig:
    dp_shard: int = 8
    save_format: str = "dcp"
    vocab_size: int = 32000
    dim: int = 2048
    n_layers: int = 16
    lr: float = 3e-4
