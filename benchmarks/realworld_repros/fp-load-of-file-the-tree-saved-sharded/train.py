import os

import torch
from torch.distributed.fsdp import fully_shard

from checkpoint import load_checkpoint, save_checkpoint


def main():
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    if os.path.exists("ckpt/model.pt"):
        load_checkpoint(model, "ckpt")
    model(torch.randn(2, 8)).sum().backward()
    save_checkpoint(model, "ckpt")


if __name__ == "__main__":
    main()
