import torch.nn as nn


class ExpertBlock(nn.Module):
    def __init__(self, dim: int = 64, experts: int = 8):
        super().__init__()
        self.router = nn.Linear(dim, experts)
        self.experts = nn.Linear(dim, dim * experts)

    def forward(self, x):
        return x + self.experts(x)[..., : x.shape[-1]] * self.router(x).softmax(-1)[..., :1]


class MoEModel(nn.Module):
    def __init__(self, depth: int = 4):
        super().__init__()
        self.layers = nn.ModuleList([ExpertBlock() for _ in range(depth)])
        self.head = nn.Linear(64, 64)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)
