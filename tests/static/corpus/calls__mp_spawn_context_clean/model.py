import torch.nn as nn
from torch.distributed.fsdp import fully_shard


class Net(nn.Module):
    def __init__(self, width: int = 8):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(width, width), nn.Linear(width, width)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def configure_fsdp(self):
        for layer in self.layers:
            fully_shard(layer)
        fully_shard(self)
