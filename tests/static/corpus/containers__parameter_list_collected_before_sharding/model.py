from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(x, x, x, need_weights=False)[0]
        return x + self.mlp(x)


class RadarVLM(nn.Module):
    def __init__(self, dim: int = 256, depth: int = 4):
        super().__init__()
        self.encoder = nn.Linear(64, dim)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, 32)

    def forward(self, radar):
        x = self.encoder(radar)
        for block in self.blocks:
            x = block(x)
        return self.head(x)
