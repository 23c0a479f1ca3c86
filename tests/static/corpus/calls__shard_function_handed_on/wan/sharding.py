import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def shard_model(model, param_dtype=torch.bfloat16):
    policy = MixedPrecisionPolicy(param_dtype=param_dtype, reduce_dtype=torch.float32)
    for block in model.blocks:
        fully_shard(block, mp_policy=policy)
    fully_shard(model, mp_policy=policy)
    return model
