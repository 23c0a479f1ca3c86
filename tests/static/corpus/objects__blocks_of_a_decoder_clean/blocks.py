import torch
import torch.nn as nn


class DecoderBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.ReLU(), nn.Linear(4 * dim, dim))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        return x + self.ffn(x + self.attn(self.norm(x)))


class TinyModel(nn.Module):
    """One decoder block: sharding it, then the root, is the whole plan."""

    def __init__(self, vocab=16, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = DecoderBlock(dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids):
        return self.norm(self.block(self.embed(ids)))


class Decoder(nn.Module):
    def __init__(self, vocab=16, dim=32, depth=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(DecoderBlock(dim) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids):
        x = self.embed(ids)
        for layer in self.layers:
            x = layer(x)
        return self.norm(x)


class ScaleShift(nn.Module):
    """A layer of parameters alone (no modules inside): four of them are no blocks."""

    def __init__(self, dim=32):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(dim))
        self.shift = nn.Parameter(torch.zeros(dim))
        self.eps = 1e-6

    def forward(self, x):
        return x * self.scale + self.shift


class Probe(nn.Module):
    """A small head: an MLP of two linear layers, no blocks."""

    def __init__(self, dim=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))
        self.stack = nn.Sequential(*[nn.Linear(dim, dim) for _ in range(3)])
        self.adapters = nn.ModuleList(ScaleShift(dim) for _ in range(4))

    def forward(self, x):
        for adapter in self.adapters:
            x = adapter(x)
        return self.mlp(self.stack(x))
