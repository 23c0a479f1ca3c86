import torch
from torch import nn


class Router(nn.Module):
    """Routing logits stay fp32: bf16 ties flip the chosen experts."""

    def __init__(self, dim: int, experts: int):
        super().__init__()
        self.gate = nn.Linear(dim, experts, bias=False)

    def forward(self, x):
        return self.gate(x.float()).softmax(-1)


class Block(nn.Module):
    def __init__(self, dim: int, experts: int):
        super().__init__()
        self.router = Router(dim, experts)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(experts))

    def forward(self, x):
        weights = self.router(x)
        return sum(weights[..., i : i + 1] * expert(x) for i, expert in enumerate(self.experts))


class MoE(nn.Module):
    def __init__(self, dim: int = 256, depth: int = 4, experts: int = 8):
        super().__init__()
        self.embed = nn.Embedding(32000, dim)
        self.blocks = nn.ModuleList(Block(dim, experts) for _ in range(depth))
        self.head = nn.Linear(dim, 32000, bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(x)
