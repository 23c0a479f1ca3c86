import os

import torch
from torch.distributed.fsdp import fully_shard

from model import Net


def main(pretrained):
    loaded = False
    if pretrained:
        net = Net.from_pretrained(pretrained)
        loaded = True
    else:
        with torch.device("meta"):
            net = Net()
    for block in net.blocks:
        fully_shard(block)
    fully_shard(net)
    if not loaded:
        net.to_empty(device="cpu")
        net.reset_parameters()
    optimizer = torch.optim.AdamW(net.parameters())
    net(torch.randn(2, 8)).sum().backward()
    optimizer.step()


if __name__ == "__main__":
    main(os.environ.get("PRETRAINED"))
