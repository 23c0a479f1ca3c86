import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from ckpt import save_checkpoint


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return self.lin(x)


def main():
    model = nn.Sequential(Block(), Block())
    for block in model:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.randn(4, 8)).sum().backward()
    optimizer.step()
    save_checkpoint(model, optimizer, "ckpt")
