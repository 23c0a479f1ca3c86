import torch
from torch import nn
from torch.distributed.fsdp import FSDPModule, fully_shard
from torch.nn.parallel import DistributedDataParallel as DDP


def unwrap(model):
    return model.module if hasattr(model, "module") else model


def full_state(model):
    if isinstance(model, FSDPModule):
        return {k: v.full_tensor() for k, v in model.state_dict().items()}
    return unwrap(model).state_dict()


def wrap(model, strategy):
    if strategy == "fsdp":
        fully_shard(model)
        return model
    return DDP(model)


def main(strategy):
    model = wrap(nn.Linear(4, 4), strategy)
    sd = full_state(model)
    torch.save(sd, "m.pt")
