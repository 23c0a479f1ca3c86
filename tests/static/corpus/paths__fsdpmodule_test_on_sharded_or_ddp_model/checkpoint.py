import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FullyShardedDataParallel

from parallel import unwrap_model


def full_state_dict(model):
    """Full tensors on every rank (written for FSDP1's wrapper: a `fully_shard`ed module is no
    instance of it, so FSDP2 takes the DDP arm and keeps its shards)."""
    if isinstance(model, FullyShardedDataParallel):
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        return get_model_state_dict(model, options=options)
    return unwrap_model(model).state_dict()


def save_checkpoint(model, directory, step):
    state = full_state_dict(model)
    if dist.get_rank() == 0:
        os.makedirs(directory, exist_ok=True)
        torch.save({"model": state, "step": step}, os.path.join(directory, f"step_{step:07d}.pt"))  # expect: FSD301
    dist.barrier()
