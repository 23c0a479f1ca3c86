import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from optim import build_optimizer


def main():
    model = nn.Sequential(nn.Linear(16, 16), nn.Linear(16, 16))
    optimizer = build_optimizer(model.parameters(), "AdamW", 1e-4)
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    model(torch.randn(2, 16)).sum().backward()
    optimizer.step()
