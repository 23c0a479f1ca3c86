import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel, fully_shard
from torch.nn.parallel import DistributedDataParallel


def is_sharded(model):
    if isinstance(model, FullyShardedDataParallel):
        return True
    return False


def unwrap_ddp(model):
    if isinstance(model, DistributedDataParallel):
        return model.module
    return model


def parallelize(model):
    """Shard the model as one unit when there are several ranks (it is small: one all-gather
    per step); one process trains it as is."""
    if dist.get_world_size() > 1:
        fully_shard(model)
    return model
