import torch
from torch.distributed.fsdp import fully_shard

from optim import get_optimizer


def main() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
    optimizer = get_optimizer(model)
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    for _ in range(3):
        model(torch.ones(2, 8)).sum().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
