import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.mlp(self.norm(x))


class Surrogate(nn.Module):
    """A field surrogate: blocks over point features, then a head per output variable."""

    def __init__(self, depth: int = 4, dim: int = 32):
        super().__init__()
        self.embed = nn.Linear(3, dim)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, 4)

    def forward(self, points: torch.Tensor) -> torch.Tensor:
        x = self.embed(points)
        for block in self.blocks:
            x = block(x)
        return self.head(x)
