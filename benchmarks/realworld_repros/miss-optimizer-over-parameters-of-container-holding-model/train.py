import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard


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
    trainable = nn.ModuleList([model])
    optimizer = torch.optim.SGD(trainable.parameters(), lr=0.1)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model(torch.ones(4)).sum().backward()
    optimizer.step()
