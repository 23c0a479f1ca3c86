from torch import nn


class STBlock(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class DynamicsModel(nn.Module):
    def __init__(self, dim: int = 256, num_blocks: int = 4, num_bins: int = 512):
        super().__init__()
        self.latent_embed = nn.Embedding(num_bins, dim)
        self.blocks = nn.ModuleList([STBlock(dim) for _ in range(num_blocks)])
        self.output_mlp = nn.Linear(dim, num_bins)

    def forward(self, tokens):
        x = self.latent_embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.output_mlp(x)
