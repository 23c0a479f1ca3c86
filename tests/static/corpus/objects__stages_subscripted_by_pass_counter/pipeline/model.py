import torch
from torch import nn


class Experts(nn.Module):
    def __init__(self, dim: int, count: int):
        super().__init__()
        self.w = nn.Parameter(torch.randn(count, dim, dim) * 0.02)

    def forward(self, x):
        return torch.einsum("bd,edf->bf", x, self.w) / self.w.shape[0]


class MoELayer(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.experts = Experts(dim, 8)

    def forward(self, x):
        return x + self.experts(self.attn(x))


class Stage(nn.Module):
    """One pipeline stage: this rank runs two (a DualPipe-style V schedule)."""

    def __init__(self, dim: int, layers: int):
        super().__init__()
        self.embed = nn.Linear(dim, dim)
        self.layers = nn.ModuleList(MoELayer(dim) for _ in range(layers))

    def forward(self, x):
        x = self.embed(x)
        for layer in self.layers:
            x = layer(x)
        return x
