import torch.nn as nn


class DecoderBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.ffn = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        return x + self.ffn(x + self.attn(self.norm(x)))


class TinyModel(nn.Module):
    def __init__(self, vocab=16, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = DecoderBlock(dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids):
        return self.norm(self.block(self.embed(ids)))
