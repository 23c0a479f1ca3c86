import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(model, mesh):
    """One unit per block, the last one kept unsharded after forward, then the root."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for index, block in enumerate(model.layers):
        fully_shard(block, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=index < len(model.layers) - 1)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)


def parallelize(model, mesh):
    apply_fsdp(model, mesh)
    print("applied FSDP2")
