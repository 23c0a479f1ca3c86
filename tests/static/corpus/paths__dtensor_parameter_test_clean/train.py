import copy

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import fully_shard

from checkpoint import to_checkpoint


class MalConv(nn.Module):
    def __init__(self, channels: int = 128, classes: int = 2):
        super().__init__()
        self.embed = nn.Embedding(257, 8)
        self.conv = nn.Conv1d(8, channels, kernel_size=512, stride=512)
        self.blocks = nn.ModuleList(nn.Sequential(nn.Linear(channels, channels), nn.GELU()) for _ in range(4))
        self.head = nn.Linear(channels, classes)

    def forward(self, x):
        h = self.conv(self.embed(x).transpose(1, 2)).max(-1).values
        for block in self.blocks:
            h = h + block(h)
        return self.head(h)


def main(loader, out_dir):
    dist.init_process_group("nccl")
    model = MalConv()
    ema = copy.deepcopy(model).requires_grad_(False)
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
    to_checkpoint(model, ema, optimizer, out_dir)
