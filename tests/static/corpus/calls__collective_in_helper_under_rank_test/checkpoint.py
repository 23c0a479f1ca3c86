import os

import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict


def save_checkpoint(model, optimizer, folder: str, step: int):
    """A sharded checkpoint: each rank writes its own shards, rank 0 the metadata."""
    model_state, optim_state = get_state_dict(model, optimizer)
    state = {"model": model_state, "optim": optim_state, "step": step}
    dcp.save(state, checkpoint_id=os.path.join(folder, f"step_{step}"))


def save_debug_copy(model, folder: str):
    """A copy of this rank's shards for debugging, written without the other ranks."""
    dcp.save({"model": model.state_dict()}, checkpoint_id=os.path.join(folder, "debug"), no_dist=True)
