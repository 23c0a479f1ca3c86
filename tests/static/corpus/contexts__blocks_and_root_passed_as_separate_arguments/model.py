from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(x + self.attn(x))


class Encoder(nn.Module):
    def __init__(self, dim: int, depth: int):
        super().__init__()
        self.layers = nn.ModuleList([Block(dim) for _ in range(depth)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Transformer(nn.Module):
    def __init__(self, dim: int = 64, depth: int = 4):
        super().__init__()
        self.embed = nn.Linear(dim, dim)
        self.encoder = Encoder(dim, depth)
        self.layers = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, dim)

    def forward(self, x):
        x = self.encoder(self.embed(x))
        for layer in self.layers:
            x = layer(x)
        return self.head(x)
