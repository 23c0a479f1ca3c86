import torch
from torch import nn
from torch.distributed.fsdp import FSDPModule, fully_shard


def shard_root(model, wrapped):
    if id(model) in wrapped:
        return False
    fully_shard(model)
    return True


def shard(model, strategy):
    if strategy == "fsdp":
        wrapped = set()
        for block in model:
            fully_shard(block)
            wrapped.add(id(block))
        shard_root(model, wrapped)


def unwrap(model):
    return model.module if hasattr(model, "module") else model


def full_state(model):
    if isinstance(model, FSDPModule):
        return {k: v.full_tensor() for k, v in model.state_dict().items()}
    return unwrap(model).state_dict()


def save(model, path):
    torch.save(full_state(model), path)


def main(strategy):
    model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4))
    shard(model, strategy)
    save(model, "m.pt")
