import sys

import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard

from app.checkpoint import load_weights


def main(sharded, resume):
    model = nn.Sequential(*[nn.Linear(8, 8) for _ in range(4)])
    if sharded:
        for block in model:
            fully_shard(block)
        fully_shard(model)
    load_weights(model, resume)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model(torch.randn(2, 8)).sum().backward()
    optimizer.step()


if __name__ == "__main__":
    main(len(sys.argv) > 2, sys.argv[1])
