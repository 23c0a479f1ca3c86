import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def shard_and_allocate(module, mesh):
    """Shard every block, then the root, and give this rank's shards their memory."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in module.layers:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy)
    fully_shard(module, mesh=mesh, mp_policy=mp_policy)
    module.to_empty(device="cuda")
    return module
