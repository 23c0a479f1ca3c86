import torch
from torch import nn
from torch.distributed.fsdp import fully_shard
from mod import Base
from ckpt import save_checkpoint


class Net(Base):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def main():
    model = Net()
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(2, 4)).sum().backward()
    opt.step()
    save_checkpoint("ckpt", model)
