import os

import torch
from torch.distributed.fsdp import fully_shard

from model import Net


def main(pretrained):
    with torch.device("meta"):
        net = Net()
    loaded = False
    if os.path.isdir(pretrained):
        net = Net.from_pretrained(pretrained)
        loaded = True
    for block in net.blocks:
        fully_shard(block)
    fully_shard(net)
    if not loaded and not os.path.isdir(pretrained):
        net.to_empty(device="cpu")
        net.reset_parameters()
    optimizer = torch.optim.AdamW(net.parameters())
    net(torch.randn(2, 8)).sum().backward()
    optimizer.step()


if __name__ == "__main__":
    main(os.environ.get("PRETRAINED"))
