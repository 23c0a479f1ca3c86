import torch
from torch.distributed.fsdp import fully_shard


def setup(model):
    """bf16 weights, one unit per block, then the root (the head)."""
    model.to(torch.bfloat16)
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    return model
