"""How the model is sharded: per-parameter FSDP2 when the job sets `FSDP_VERSION=2`, FSDP1's
flat-parameter wrapper (the default) otherwise."""

import os

import torch
from torch.distributed.fsdp import FullyShardedDataParallel, MixedPrecision, MixedPrecisionPolicy, fully_shard


def wrap_model(model, mesh, param_dtype=torch.bfloat16):
    if os.environ.get("FSDP_VERSION", "1") == "2":
        mp_policy = MixedPrecisionPolicy(param_dtype=param_dtype, reduce_dtype=torch.float32)
        for block in model.layers:
            fully_shard(block, mesh=mesh, mp_policy=mp_policy)
        fully_shard(model, mesh=mesh, mp_policy=mp_policy)
        return model
    mixed = MixedPrecision(param_dtype=param_dtype, reduce_dtype=torch.float32)
    return FullyShardedDataParallel(model, device_mesh=mesh, mixed_precision=mixed, use_orig_params=True)
