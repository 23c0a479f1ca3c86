import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        return self.proj(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x

    def reset_parameters(self):
        for block in self.blocks:
            block.proj.reset_parameters()

    @classmethod
    def from_pretrained(cls, path):
        net = cls()
        net.load_state_dict(torch.load(path))
        return net
