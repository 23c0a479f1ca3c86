import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import fully_shard


class Stage(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)
        self.head = nn.Linear(8, 8)


class Pipe(nn.Module):
    """A pipeline schedule over stages built and sharded by the caller."""

    def __init__(self, modules):
        super().__init__()
        self.module = nn.ModuleList(modules)

    def step(self, x):
        return self.module[0].head.forward(x)


def build():
    stages = nn.Sequential(Stage(), Stage())
    for stage in stages:
        fully_shard(stage.head)
        fully_shard(stage)
    return Pipe(stages)


def train():
    pipe = build()
    pipe.step(torch.randn(2, 8))
    if dist.get_rank() == 0:
        torch.save(pipe.state_dict(), "pipe.pt")
