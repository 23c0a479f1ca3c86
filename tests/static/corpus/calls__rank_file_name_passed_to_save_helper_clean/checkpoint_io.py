import os
from pathlib import Path

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_state_dict


def shard_file(directory, rank, world_size):
    """One file per rank: a resume with the same world size reads each back on its own rank."""
    return Path(directory) / f"shard_{rank:05d}_of_{world_size:05d}.pt"


def atomic_save(state, filename):
    """Write to a temporary name, then rename, so a crash never leaves half a checkpoint."""
    tmp = filename.with_suffix(filename.suffix + ".tmp")
    torch.save(state, tmp)
    os.replace(tmp, filename)


def save_local_shards(model, optimizer, directory):
    rank, world_size = dist.get_rank(), dist.get_world_size()
    options = StateDictOptions(full_state_dict=False, cpu_offload=True)
    model_state, optim_state = get_state_dict(model, optimizer, options=options)
    atomic_save({"model": model_state, "optim": optim_state}, shard_file(directory, rank, world_size))
    dist.barrier()


def save_each_rank(model, directory):
    name = os.path.join(directory, "rank" + str(dist.get_rank()) + ".pt")
    torch.save(model.state_dict(), name)
