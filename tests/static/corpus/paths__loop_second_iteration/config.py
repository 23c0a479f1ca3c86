from dataclasses import dataclass, field
from typing import List

import torch


@dataclass
class Stage:
    name: str
    dtype: torch.dtype
    lr: float
    steps: int


@dataclass
class CurriculumConfig:
    stages: List[Stage] = field(default_factory=lambda: [
        Stage("warmup", torch.float32, 1e-4, 2000),
        Stage("main", torch.bfloat16, 3e-4, 100000),
    ])
