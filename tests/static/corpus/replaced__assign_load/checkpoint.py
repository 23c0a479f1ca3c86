import torch
from torch.distributed.tensor import distribute_tensor


def load_full_checkpoint(model, path: str):
    """Each rank reads the full checkpoint and keeps its own shard of every tensor."""
    full = torch.load(path, map_location="cpu", mmap=True, weights_only=True)
    sharded = {}
    for name, param in model.state_dict().items():
        sharded[name] = distribute_tensor(full[name].to(param.dtype), param.device_mesh, param.placements)
    model.load_state_dict(sharded, strict=True, assign=True)
