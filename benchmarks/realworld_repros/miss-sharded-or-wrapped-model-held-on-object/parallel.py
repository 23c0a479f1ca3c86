import torch
from torch.distributed.fsdp import fully_shard


def wrap(model, mode: str):
    if mode == "fsdp2":
        for layer in model:
            fully_shard(layer)
        fully_shard(model)
    elif mode == "ddp":
        model = torch.nn.parallel.DistributedDataParallel(model)
    return model
