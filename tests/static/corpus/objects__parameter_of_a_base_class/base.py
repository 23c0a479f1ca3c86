import torch
from torch import nn


class ScaledHead(nn.Module):
    """A head whose output is multiplied by a learned per-channel scale."""

    def __init__(self, dim: int):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(dim))

    def scaled(self, x):
        return x * self.scale
