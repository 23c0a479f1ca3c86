import torch.nn as nn
from torch.distributed.fsdp import fully_shard


class Block(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.mlp(self.attn(x).relu())


class Transformer(nn.Module):
    def __init__(self, dim: int = 16, depth: int = 2) -> None:
        super().__init__()
        self.layers = nn.ModuleList([Block(dim) for _ in range(depth)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def setup(dim: int = 16):
    model = Transformer(dim)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    return model
