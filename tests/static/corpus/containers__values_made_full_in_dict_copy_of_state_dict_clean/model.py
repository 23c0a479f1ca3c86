from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.BatchNorm1d(dim)

    def forward(self, x):
        return self.norm(self.proj(x))


class Policy(nn.Module):
    def __init__(self, dim: int = 32, depth: int = 4):
        super().__init__()
        self.layers = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)
