from dataclasses import dataclass


@dataclass
class TrainConfig:
    vocab_size: int = 32000
    dim: int = 1024
    n_layers: int = 16
    lr: float = 2e-4
    ema_decay: float = 0.999
    max_steps: int = 5000
    save_every: int = 1000
    output_dir: str = "checkpoints"
