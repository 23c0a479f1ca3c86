import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard

from optim import build_optimizer


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def main(config):
    model = Net()
    optimizer = build_optimizer(model, config.optimizer, 1e-4)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model(torch.ones(4)).sum().backward()
    optimizer.step()
