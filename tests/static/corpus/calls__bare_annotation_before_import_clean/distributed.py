"""FSDP2 helpers; the names are declared for type checkers and bound by the import when
torch.distributed has FSDP2."""

from typing import Any

import torch

fully_shard: Any
MixedPrecisionPolicy: Any
try:
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

    HAS_FSDP2 = True
except ImportError:
    fully_shard = None
    MixedPrecisionPolicy = None
    HAS_FSDP2 = False


def apply_fsdp2(model, mesh=None):
    if not HAS_FSDP2:
        raise RuntimeError("FSDP2 needs torch >= 2.6")
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.blocks:
        fully_shard(block, mesh=mesh, mp_policy=policy)
    fully_shard(model, mesh=mesh, mp_policy=policy)
    return model
