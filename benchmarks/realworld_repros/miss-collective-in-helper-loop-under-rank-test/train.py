import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from evaluate import eval_model


def train(model, optimizer, loader, val_loader, global_rank):
    for step, batch in enumerate(loader):
        model(batch).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
        if global_rank == 0:
            eval_model(model, val_loader, 2)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters())
    loader = [torch.randn(2, 4) for _ in range(3)]
    train(model, optimizer, loader, loader, dist.get_rank())


if __name__ == "__main__":
    main()
