import torch
from torch import nn


class GPT(nn.Module):
    def __init__(self, dim=64, layers=4):
        super().__init__()
        self.embed = nn.Embedding(1000, dim)
        self.blocks = nn.ModuleList(nn.Linear(dim, dim) for _ in range(layers))
        self.head = nn.Linear(dim, 1000)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = torch.relu(block(x))
        return self.head(x)
