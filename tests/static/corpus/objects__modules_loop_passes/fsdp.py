"""Norms keep fp32 parameters and compute: each is a unit of its own with an fp32 policy, inside
the bf16 unit of its decoder layer."""

import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import DecoderLayer

FP32_SUFFIXES = ("layernorm", "norm")


def apply_fsdp(model, mesh):
    bf16 = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    fp32 = MixedPrecisionPolicy(param_dtype=torch.float32, reduce_dtype=torch.float32)
    fully_shard(model, mesh=mesh, mp_policy=bf16)
    for name, module in model.named_modules():
        if name.endswith(FP32_SUFFIXES):
            fully_shard(module, mesh=mesh, mp_policy=fp32)  # expect: FSD102
    for module in model.model.modules():
        if isinstance(module, DecoderLayer):
            fully_shard(module, mesh=mesh, mp_policy=bf16)  # expect: FSD102
    return model
