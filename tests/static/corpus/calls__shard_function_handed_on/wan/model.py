import torch
from torch import nn


class AttentionBlock(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.ffn(x)


class VideoTransformer(nn.Module):
    def __init__(self, dim: int = 1024, depth: int = 24, heads: int = 16):
        super().__init__()
        self.patch = nn.Linear(3 * 16 * 16, dim)
        self.blocks = nn.ModuleList(AttentionBlock(dim, heads) for _ in range(depth))
        self.out = nn.Linear(dim, 3 * 16 * 16)

    def forward(self, patches):
        x = self.patch(patches)
        for block in self.blocks:
            x = block(x)
        return self.out(x)
