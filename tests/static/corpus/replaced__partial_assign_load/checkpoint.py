import torch
from torch.distributed.tensor import distribute_tensor


def load_from_full_checkpoint(model, path: str, strict: bool = True):
    """Each rank reads the full checkpoint and keeps its shard of each tensor it holds; with
    `assign=True` the loaded tensors become the model's parameters."""
    full = torch.load(path, map_location="cpu", mmap=True, weights_only=True)
    current = model.state_dict()
    sharded = {}
    for name, tensor in full.items():
        param = current[name]
        sharded[name] = torch.nn.Parameter(distribute_tensor(tensor.to(param.dtype), param.device_mesh, param.placements))
    return model.load_state_dict(sharded, strict=strict, assign=True)
