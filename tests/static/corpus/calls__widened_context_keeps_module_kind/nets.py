import torch
from torch import nn


class Base(nn.Module):
    """What every test model shares: a width and a head."""

    def __init__(self, width=16):
        super().__init__()
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        return self.head(self.body(x))


class MLP(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.body = nn.Sequential(nn.Linear(width, width), nn.ReLU())


class Gated(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.body = nn.Linear(width, width)
        self.gate = nn.Parameter(torch.ones(width))


class Conv(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.body = nn.Conv1d(width, width, 1)


class Norm(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.body = nn.LayerNorm(width)


class Embed(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.body = nn.Embedding(32, width)


class Recurrent(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.body = nn.GRUCell(width, width)


class Bilinear(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.body = nn.Linear(width, width)
        self.mix = nn.Bilinear(width, width, width)


class Residual(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.body = nn.Linear(width, width)
        self.skip = nn.Identity()
