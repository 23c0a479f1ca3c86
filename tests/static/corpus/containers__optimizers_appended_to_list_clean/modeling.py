from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class WorldModel(nn.Module):
    """Latent dynamics: a token embedding, a stack of blocks and a head over the latent codes."""

    def __init__(self, num_codes: int, dim: int, depth: int):
        super().__init__()
        self.embed = nn.Embedding(num_codes, dim)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, num_codes)

    def forward(self, codes):
        x = self.embed(codes)
        for block in self.blocks:
            x = block(x)
        return self.head(x)
