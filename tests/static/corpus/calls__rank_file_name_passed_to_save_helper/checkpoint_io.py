import os
from pathlib import Path

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_state_dict


def checkpoint_file(directory, step):
    """One file for the whole job: every rank writes its shards over the others'."""
    return Path(directory) / f"step_{step:07d}.pt"


def atomic_save(state, filename):
    """Write to a temporary name, then rename, so a crash never leaves half a checkpoint."""
    tmp = filename.with_suffix(filename.suffix + ".tmp")
    torch.save(state, tmp)  # expect: FSD301
    os.replace(tmp, filename)


def save_local_shards(model, optimizer, directory):
    options = StateDictOptions(full_state_dict=False, cpu_offload=True)
    model_state, optim_state = get_state_dict(model, optimizer, options=options)
    atomic_save({"model": model_state, "optim": optim_state}, checkpoint_file(directory, 0))
    dist.barrier()


def save_each_rank(model, directory):
    name = os.path.join(directory, "model" + str(dist.get_world_size()) + ".pt")
    torch.save(model.state_dict(), name)  # expect: FSD301
