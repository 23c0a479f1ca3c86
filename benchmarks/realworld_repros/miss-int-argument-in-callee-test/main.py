import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from net import Net


def build(dp):
    model = Net()
    if dp > 1:
        for block in model.blocks:
            fully_shard(block)
        fully_shard(model)
    return model


def main():
    model = build(2)
    if dist.get_rank() == 0:
        model(torch.randn(2, 4))
    out = model(torch.randn(2, 4))
    out.sum().backward()


main()
