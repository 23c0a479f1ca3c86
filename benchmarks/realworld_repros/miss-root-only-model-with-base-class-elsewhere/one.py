import torch
from torch import nn
from torch.distributed.fsdp import fully_shard
from base import Base




class Net(Base):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(32, 32) for _ in range(4)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def main():
    model = Net()
    fully_shard(model)
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(2, 32)).sum().backward()
    opt.step()
