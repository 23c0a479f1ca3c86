import torch
from torch.distributed.fsdp import fully_shard

from system import LMSystem


def build_system(dim, n_layers):
    trunk = torch.nn.Sequential(*[torch.nn.Linear(dim, dim) for _ in range(n_layers)])
    head = torch.nn.Linear(dim, dim)
    for block in trunk:
        fully_shard(block)
    fully_shard(trunk)
    fully_shard(head)
    return {"system": LMSystem(trunk, head)}
