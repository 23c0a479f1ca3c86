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


def build_optimizer(model, lr):
    optimizer_kwargs = {"params": [p for p in model.parameters() if p.requires_grad], "lr": lr}
    return torch.optim.AdamW(**optimizer_kwargs)


def main():
    model = Net()
    optimizer = build_optimizer(model, 1e-4)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model(torch.ones(4)).sum().backward()
    optimizer.step()
