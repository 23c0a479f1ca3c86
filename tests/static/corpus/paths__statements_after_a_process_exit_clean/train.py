import torch
from torch.distributed.fsdp import fully_shard
from torch import nn

from steps import eval_step


def main():
    model = nn.Sequential(nn.Linear(16, 16), nn.Linear(16, 16))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    return eval_step(model, torch.randn(2, 16))


if __name__ == "__main__":
    main()
