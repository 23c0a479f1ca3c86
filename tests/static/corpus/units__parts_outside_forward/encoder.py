import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.mlp(self.attn(x))


class VisionEncoder(nn.Module):
    def __init__(self, dim=64, depth=4):
        super().__init__()
        self.patch_embed = nn.Linear(dim, dim)
        self.pos_embed = nn.Parameter(torch.zeros(1, 16, dim))
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def run_blocks(self, h):
        for block in self.blocks:
            h = block(h)
        return h

    def forward_features(self, x):
        h = self.patch_embed(x) + self.pos_embed
        return self.norm(self.run_blocks(h))

    def forward(self, x):
        return self.forward_features(x).mean(dim=1)


class Classifier(nn.Module):
    def __init__(self, dim=64, classes=10):
        super().__init__()
        self.encoder = VisionEncoder(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        return self.head(self.encoder(x))
