import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def parallelize(model, mesh, reshard_after_forward: bool = True):
    """HSDP: replicated over `dp`, sharded over `fs`; one unit per block, then the root."""
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.layers:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=reshard_after_forward)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=False)
