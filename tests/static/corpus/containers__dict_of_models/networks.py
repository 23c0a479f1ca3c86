import torch
from torch import nn
from torch.distributed.fsdp import fully_shard


class DiTBlock(nn.Module):
    def __init__(self, dim: int, n_heads: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.norm(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(x)


class DiT(nn.Module):
    """A diffusion transformer with a learned log-variance head for its uncertainty-weighted loss."""

    def __init__(self, in_channels: int, dim: int, depth: int):
        super().__init__()
        self.x_embedder = nn.Linear(in_channels * 4, dim)
        self.blocks = nn.ModuleList([DiTBlock(dim, dim // 64) for _ in range(depth)])
        self.final_layer = nn.Linear(dim, in_channels * 4)
        self.logvar_linear = nn.Linear(dim, 1)

    def forward(self, x):
        h = self.x_embedder(x)
        for block in self.blocks:
            h = block(h)
        return self.final_layer(h), self.logvar_linear(h.mean(1))

    def fully_shard(self, **kwargs):
        for block in self.blocks:
            fully_shard(block, **kwargs)
        fully_shard(self.x_embedder, **kwargs)
        fully_shard(self.final_layer, **kwargs)


class Discriminator(nn.Module):
    def __init__(self, dim: int, depth: int = 4):
        super().__init__()
        self.layers = nn.ModuleList([nn.Sequential(nn.Linear(dim, dim), nn.SiLU()) for _ in range(depth)])
        self.head = nn.Linear(dim, 1)

    def forward(self, features):
        for layer in self.layers:
            features = layer(features)
        return self.head(features)

    def fully_shard(self, **kwargs):
        for layer in self.layers:
            fully_shard(layer, **kwargs)
        fully_shard(self, **kwargs)
