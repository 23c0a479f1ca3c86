import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FSDPModule

from parallel import unwrap_model


def full_state_dict(model):
    """Full tensors on every rank: FSDP2 gathers its shards, DDP's replica is whole already."""
    if isinstance(model, FSDPModule):
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        return get_model_state_dict(model, options=options)
    return unwrap_model(model).state_dict()


def save_checkpoint(model, directory, step):
    state = full_state_dict(model)
    if dist.get_rank() == 0:
        os.makedirs(directory, exist_ok=True)
        torch.save({"model": state, "step": step}, os.path.join(directory, f"step_{step:07d}.pt"))
    dist.barrier()
