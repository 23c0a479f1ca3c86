import torch
from torch.distributed.tensor import distribute_tensor


def load_base_checkpoint(model, path, strict=True):
    """The base checkpoint holds no `lora_` keys: only the frozen weights are replaced."""
    full = torch.load(path, mmap=True)
    current = model.state_dict()
    sharded = {}
    for name, tensor in full.items():
        sharded[name] = torch.nn.Parameter(distribute_tensor(tensor, current[name].device_mesh, current[name].placements))
    model.load_state_dict(sharded, strict=strict, assign=True)
