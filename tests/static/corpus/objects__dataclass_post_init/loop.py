from dataclasses import dataclass, field
from typing import List

import torch
from torch import nn

from checkpointing import Checkpointer


@dataclass(kw_only=True)
class TrainLoop:
    model: nn.Module
    optimizer: torch.optim.Optimizer
    output_dir: str = "out"
    save_every: int = 1000
    losses: List[float] = field(default_factory=list)

    def __post_init__(self):
        # the checkpointer lives on the loop; nothing passes it in
        self.checkpointer = Checkpointer(self.output_dir)

    def fit(self, dataloader):
        for step, tokens in enumerate(dataloader, start=1):
            loss = self.model(tokens).mean()
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.losses.append(loss.item())
            if step % self.save_every == 0:
                self.checkpointer.save(self.model, self.optimizer, step)
