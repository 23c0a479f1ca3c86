import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from base import Exportable
from checkpointing import export_model


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        return x + self.proj(self.norm(x))


class Surrogate(Exportable):
    def __init__(self, width=64, depth=4):
        super().__init__(width=width, depth=depth)
        self.blocks = nn.ModuleList([Block(width) for _ in range(depth)])
        self.out = nn.Linear(width, 1)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.out(x)


def setup():
    model = Surrogate()
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    return model


def main(steps=100):
    model = setup()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        loss = model(torch.randn(8, 64)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    export_model(model, "surrogate.pt")
