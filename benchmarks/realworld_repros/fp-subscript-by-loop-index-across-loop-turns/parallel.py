import torch.nn as nn
from torch.distributed.fsdp import fully_shard


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.Linear(8, 8)
        self.experts = nn.Linear(8, 8)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Block() for _ in range(4)])


def apply_fsdp(model):
    for i in range(len(model.layers)):
        fully_shard(model.layers[i].experts)
        fully_shard(model.layers[i])
    fully_shard(model)
    return model


def build():
    return apply_fsdp(Model())
