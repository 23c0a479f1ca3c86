import os

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.proj(self.norm(x))


class VideoDiT(nn.Module):
    def __init__(self, dim: int = 64, depth: int = 4):
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.out(x)

    def init_weights(self):
        for module in self.modules():
            if isinstance(module, (nn.Linear, nn.LayerNorm)):
                module.reset_parameters()

    @classmethod
    def from_pretrained(cls, directory: str) -> "VideoDiT":
        model = cls()
        model.load_state_dict(torch.load(os.path.join(directory, "model.pt"), map_location="cpu"))
        return model
