import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import fully_shard

from state import fsdp2_enabled


def wrap(model):
    if fsdp2_enabled():
        for block in model.blocks:
            fully_shard(block)
        return fully_shard(model)
    return FSDP(model)
