import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict
from torch.distributed.tensor import DTensor


def is_fsdp2(model) -> bool:
    """FSDP2 keeps every parameter as a DTensor (DDP and single-GPU runs keep plain tensors)."""
    return any(isinstance(p, DTensor) for p in model.parameters())


def to_checkpoint(model, ema, optimizer, directory):
    if is_fsdp2(model):
        model_state, optim_state = get_state_dict(model, optimizer)
        dcp.save({"model": model_state, "optim": optim_state, "ema": ema.state_dict()}, checkpoint_id=directory)
    elif dist.get_rank() == 0:
        torch.save({"model": model.state_dict(), "ema": ema.state_dict()}, os.path.join(directory, "state.pt"))
