import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def parallelize_model(model, mesh, param_dtype=torch.bfloat16):
    """One unit per decoder layer, then the root; the root keeps its parameters gathered
    after forward because backward needs them at once."""
    mp_policy = MixedPrecisionPolicy(param_dtype=param_dtype, reduce_dtype=torch.float32)
    for layer in model.model.layers:
        fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
    return fully_shard(model, mesh=mesh, mp_policy=mp_policy, reshard_after_forward=False)
