"""Each fp32 subtree is a unit of its own with an fp32 policy (a list of modules: one unit per
item), then the root takes the rest in bf16. The subtrees are named by paths given at run time:
one turn's subtree may be another's (a path listed twice) but need not, so the next turn's
`ModuleList` items are no children of a module the last turn sharded."""

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
    fully_shard(module, mesh=mesh, mp_policy=policy)


def shard_by_dtype(model, mesh, fp32_paths):
    for path in fp32_paths:
        shard_unit(get_submodule(model, path), mesh, FP32)
    _call_fully_shard(model, mesh, BF16)
