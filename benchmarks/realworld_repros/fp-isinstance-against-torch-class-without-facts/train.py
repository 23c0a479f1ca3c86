import torch
from torch import nn
from torch.distributed.fsdp import fully_shard
from ckpt import save_checkpoint


class Net(nn.Module):
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
    model(torch.randn(2, 4)).sum().backward()
    save_checkpoint("ckpt", model)
