import math

import torch
from torch import nn


class DiTBlock(nn.Module):
    def __init__(self, dim: int, n_heads: int):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class DiT(nn.Module):
    def __init__(self, in_dim: int = 16, dim: int = 512, depth: int = 12, n_heads: int = 8):
        super().__init__()
        self.patch_embed = nn.Linear(in_dim, dim)
        self.time_embed = nn.Sequential(nn.Linear(1, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList([DiTBlock(dim, n_heads) for _ in range(depth)])
        self.head = nn.Linear(dim, in_dim)

    def forward(self, x, t):
        h = self.patch_embed(x) + self.time_embed(t[:, None, None].float())
        for block in self.blocks:
            h = block(h)
        return self.head(h)

    @torch.no_grad()
    def init_weights(self):
        """Called after `to_empty`: every parameter gets its value."""
        for module in self.modules():
            if isinstance(module, nn.Linear):
                nn.init.trunc_normal_(module.weight, std=1.0 / math.sqrt(module.in_features))
                if module.bias is not None:
                    nn.init.zeros_(module.bias)
            elif isinstance(module, nn.LayerNorm):
                module.reset_parameters()
        for block in self.blocks:
            block.attn._reset_parameters()
