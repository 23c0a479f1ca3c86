from dataclasses import dataclass

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


@dataclass
class Trainer:
    fsdp_model: FSDP
    optim: torch.optim.Optimizer

    def train_step(self, batch):
        loss = self.fsdp_model.forward(batch).sum()
        loss.backward()
        self.optim.step()
        self.optim.zero_grad()
