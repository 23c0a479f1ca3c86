from dataclasses import dataclass, field
from typing import List

import torch

from saver import OptimizerSaver


@dataclass(kw_only=True)
class Loop:
    model: torch.nn.Module
    optimizer: torch.optim.Optimizer
    rank: int = 0
    callbacks: List[object] = field(default_factory=list)
    folder: str = "out"

    def __post_init__(self):
        self.saver = OptimizerSaver(self.folder)

    def checkpoint(self):
        self.saver.write(self.model, self.optimizer, self.rank)
