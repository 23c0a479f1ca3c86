import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from ckpt import Checkpointing


def main():
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.randn(4, 8)).sum().backward()
    optimizer.step()
    Checkpointing.save("ckpt", model, optimizer, {"step": 1})


if __name__ == "__main__":
    main()
