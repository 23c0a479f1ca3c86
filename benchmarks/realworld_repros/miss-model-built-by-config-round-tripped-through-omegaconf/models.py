import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard


class Molmo(nn.Module):
    def __init__(self, d_model: int) -> None:
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(2)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return x

    def apply_fsdp2(self, **kwargs) -> None:
        for block in self.blocks:
            fully_shard(block, **kwargs)
        fully_shard(self, **kwargs)
