from torch.distributed.fsdp import FullyShardedDataParallel


def is_distributed_model(model):
    if isinstance(model, FullyShardedDataParallel):
        return True
    return False
