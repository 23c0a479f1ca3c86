from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, 8, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(x, x, x, need_weights=False)[0]
        return x + self.mlp(x)


class Tower(nn.Module):
    def __init__(self, dim: int, depth: int):
        super().__init__()
        self.blocks = nn.ModuleList(Block(dim) for _ in range(depth))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class MultiTower(nn.Module):
    """Towers side by side; a stage may group several towers in a list of its own."""

    def __init__(self, dim: int = 256):
        super().__init__()
        self.stages = nn.ModuleList([Tower(dim, 4), nn.ModuleList([Tower(dim, 2), Tower(dim, 2)]), Tower(dim, 4)])

    def forward(self, x):
        for stage in self.stages:
            for tower in stage if isinstance(stage, nn.ModuleList) else [stage]:
                x = tower(x)
        return x
