import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.nn.parallel import DistributedDataParallel


def wrap_model(model, strategy, mesh, device):
    """FSDP2 shards each block and then the root in place; DDP keeps a full replica per rank."""
    if strategy == "fsdp":
        mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for block in model.layers:
            fully_shard(block, mesh=mesh, mp_policy=mp_policy)
        fully_shard(model, mesh=mesh, mp_policy=mp_policy)
        return model
    model.to(device)
    return DistributedDataParallel(model, device_ids=[device.index])


def unwrap_model(model):
    """The user's module: DDP holds it as `.module`; `fully_shard` works in place."""
    if hasattr(model, "module"):
        return model.module
    return model
