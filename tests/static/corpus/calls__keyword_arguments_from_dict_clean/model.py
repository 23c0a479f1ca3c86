from torch import nn


class Denoiser(nn.Module):
    def __init__(self, dim: int = 768, depth: int = 12):
        super().__init__()
        self.inp = nn.Linear(16, dim)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(dim, 12, batch_first=True) for _ in range(depth))
        self.out = nn.Linear(dim, 16)

    def forward(self, x):
        x = self.inp(x)
        for block in self.blocks:
            x = block(x)
        return self.out(x)
