"""Each fp32 subtree is a unit of its own with an fp32 policy (a list of modules: one unit per
item), after the root took the whole model in bf16: every subtree lies inside the root's unit."""

import torch
from torch import nn
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

FP32 = MixedPrecisionPolicy(param_dtype=torch.float32, reduce_dtype=torch.float32)
BF16 = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)


def get_submodule(root, path):
    for name in path.split("."):
        root = getattr(root, name)
    return root


def shard_unit(module, mesh, policy):
    if isinstance(module, nn.ModuleList):
        for layer in module:
            shard_unit(layer, mesh, policy)
    else:
        _call_fully_shard(module, mesh, policy)


def _call_fully_shard(module, mesh, policy):
    fully_shard(module, mesh=mesh, mp_policy=policy)  # expect: FSD101  # expect: FSD102


def shard_by_dtype(model, mesh, fp32_paths):
    _call_fully_shard(model, mesh, BF16)
    for path in fp32_paths:
        shard_unit(get_submodule(model, path), mesh, FP32)
