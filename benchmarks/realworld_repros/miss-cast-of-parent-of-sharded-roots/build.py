import torch.nn as nn
from torch.distributed.fsdp import fully_shard


def build():
    model = nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 8))
    for layer in model:
        if isinstance(layer, nn.Linear):
            fully_shard(layer)
    return model
