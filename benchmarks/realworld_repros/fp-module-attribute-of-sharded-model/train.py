import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import fully_shard

from util import is_wrapped, save_ckpt


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def main(shard: bool):
    model = Net()
    if shard:
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
    else:
        model = nn.parallel.DistributedDataParallel(model)
    inner = model.module if is_wrapped(model) else model
    if dist.get_rank() == 0:
        save_ckpt(inner, "best.pt")
