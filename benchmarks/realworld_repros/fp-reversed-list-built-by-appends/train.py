import torch
from torch.distributed.fsdp import fully_shard

from model import Net


def main():
    model = Net()
    blocks = []
    for layer in model.layers:
        blocks.append(layer)
    for block in reversed(blocks):
        fully_shard(block)
    fully_shard(model)
    model(torch.randn(2, 16)).sum().backward()
