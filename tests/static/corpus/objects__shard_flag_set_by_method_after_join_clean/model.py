import torch
from torch import nn


class ResidualBlock(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.mlp(self.norm(x))


class TextEncoder(nn.Module):
    def __init__(self, vocab: int = 49408, dim: int = 512, depth: int = 6):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([ResidualBlock(dim) for _ in range(depth)])
        self.ln_final = nn.LayerNorm(dim)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.token_embedding(tokens)
        for block in self.blocks:
            x = block(x)
        return self.ln_final(x).mean(dim=1)
