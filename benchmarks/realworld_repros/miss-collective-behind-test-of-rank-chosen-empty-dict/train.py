import sys

import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from ckpt import load_checkpoint


def main():
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters())
    if len(sys.argv) > 1:
        load_checkpoint(sys.argv[1], model, optimizer)
    model(torch.randn(4, 8)).sum().backward()
    optimizer.step()


if __name__ == "__main__":
    main()
