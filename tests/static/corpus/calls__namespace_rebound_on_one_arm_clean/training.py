"""Data parallelism and checkpoints for DDP or FSDP2, as the `fsdp` option says."""

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def parallelize_model(args, model, device):
    if not getattr(args, "fsdp", False):  # standard DDP
        model = model.to(device)
        return model, torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index])
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.blocks:
        fully_shard(block, mp_policy=policy)
    fully_shard(model, mp_policy=policy)
    return model, model  # the same object, for code written for DDP


def save_model(args, model, path):
    states = model.state_dict()
    if not getattr(args, "fsdp", False):  # DDP: every rank holds the whole model
        if dist.get_rank() == 0:
            torch.save(states, path)
    else:
        dcp.save(states, checkpoint_id=path)
