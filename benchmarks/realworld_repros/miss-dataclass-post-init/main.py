import os

import torch
from torch.distributed.fsdp import fully_shard

from loop import Loop


def build(model):
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    return model


def main(model):
    model = build(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loop = Loop(model=model, optimizer=optimizer, rank=int(os.environ.get("RANK", 0)))
    loop.checkpoint()
