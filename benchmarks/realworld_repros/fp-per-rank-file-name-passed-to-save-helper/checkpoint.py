import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import get_state_dict


def _shard_filename(rank: int, world_size: int) -> str:
    return f"rank_{rank:05d}_of_{world_size:05d}.pt"


def _atomic_save(state, filename):
    """Write to a temporary name, then rename, so a crash leaves no half-written file."""
    tmp = filename + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, filename)


def save_rank_local(model, optimizer, directory):
    """Each rank writes its own shards; a resume with the same world size reads them back."""
    rank, world_size = dist.get_rank(), dist.get_world_size()
    model_state, optimizer_state = get_state_dict(model, optimizer)
    state = {"model": model_state, "optimizer": optimizer_state}
    _atomic_save(state, os.path.join(directory, _shard_filename(rank, world_size)))
