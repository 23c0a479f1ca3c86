import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from remap import remap_optimizer


def parallelize(model, optimizer, mesh, param_dtype=torch.bfloat16):
    """Shard a model whose optimizer the caller already built, and point the optimizer at the
    sharded parameters: one unit per block, then the root (embeddings, final norm and head)."""
    names = {param: name for name, param in model.named_parameters()}
    mp_policy = MixedPrecisionPolicy(param_dtype=param_dtype, reduce_dtype=torch.float32)
    for block in model.layers:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    remap_optimizer(optimizer, model, names)
    return model
