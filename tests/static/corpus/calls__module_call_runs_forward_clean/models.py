import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.mlp(torch.relu(self.attn(x)))


class ViTEncoder(nn.Module):
    def __init__(self, dim=64, depth=4):
        super().__init__()
        self.patch_embed = nn.Linear(dim, dim)
        self.pos_embed = nn.Parameter(torch.zeros(1, 16, dim))
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward_features(self, x):
        h = self.patch_embed(x) + self.pos_embed
        for block in self.blocks:
            h = block(h)
        return self.norm(h)

    def forward(self, x):
        return self.forward_features(x)


class Contrastive(nn.Module):
    """A method module: the projector trains on the encoder's token features."""

    def __init__(self, dim=64, proj=32):
        super().__init__()
        self.encoder = ViTEncoder(dim)
        self.projector = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, proj))

    def forward(self, views):
        feats = self.encoder(views)
        return self.projector(feats.mean(dim=1))
