import torch.nn as nn
from torch.distributed.fsdp import fully_shard


def build(dim: int = 16) -> nn.Module:
    model = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
    for layer in model:
        if isinstance(layer, nn.Linear):
            fully_shard(layer)
    fully_shard(model)
    return model
