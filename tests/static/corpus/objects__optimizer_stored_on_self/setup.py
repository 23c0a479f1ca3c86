import torch
from torch.distributed.fsdp import fully_shard

from model import Net


def build(lr: float = 1e-3):
    model = Net()
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    return model, optimizer
