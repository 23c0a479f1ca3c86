import torch
from torch import nn


class DiTBlock(nn.Module):
    def __init__(self, dim: int, n_heads: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.cross = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, context):
        h = self.norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        x = x + self.cross(x, context, context, need_weights=False)[0]
        return x + self.mlp(x)


class DiT(nn.Module):
    def __init__(self, in_channels: int, dim: int, depth: int, n_heads: int = 16):
        super().__init__()
        self.patch_embed = nn.Linear(in_channels * 4, dim)
        self.time_embed = nn.Sequential(nn.Linear(256, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList([DiTBlock(dim, n_heads) for _ in range(depth)])
        self.final = nn.Linear(dim, in_channels * 4)

    def forward(self, latents, timesteps, context):
        x = self.patch_embed(latents) + self.time_embed(timesteps)[:, None]
        for block in self.blocks:
            x = block(x, context)
        return self.final(x)
