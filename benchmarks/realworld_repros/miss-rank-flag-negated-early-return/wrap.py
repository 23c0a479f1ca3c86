import torch
from torch.distributed.fsdp import fully_shard


def wrap_fsdp2(model):
    for module in model.children():
        if not isinstance(module, (torch.nn.ModuleList, torch.nn.ModuleDict)):
            fully_shard(module)
    return fully_shard(model)
