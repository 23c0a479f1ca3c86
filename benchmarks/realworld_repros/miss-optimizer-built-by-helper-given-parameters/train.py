import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard

from optim_utils import build_optimizer


def main():
    model = nn.Sequential(*[nn.Linear(8, 8) for _ in range(4)])
    optimizer = build_optimizer(model.parameters())
    for block in model:
        fully_shard(block)
    fully_shard(model)
    model(torch.randn(2, 8)).sum().backward()
    optimizer.step()


if __name__ == "__main__":
    main()
