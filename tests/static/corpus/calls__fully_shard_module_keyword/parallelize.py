import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def apply_fsdp(model, mesh):
    """The keyword form of fully_shard, as the MoT trainers write it."""
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    model = fully_shard(module=model, mesh=mesh, mp_policy=policy)
    for block in model.layers:
        fully_shard(module=block, mesh=mesh, mp_policy=policy)  # expect: FSD102
    return model
