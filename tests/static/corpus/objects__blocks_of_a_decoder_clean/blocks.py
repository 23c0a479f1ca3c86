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


class Probe(nn.Module):
    """A small head: an MLP of two linear layers, no blocks."""

    def __init__(self, dim=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))
        self.stack = nn.Sequential(*[nn.Linear(dim, dim) for _ in range(3)])

    def forward(self, x):
        return self.mlp(self.stack(x))
