import torch
from torch.distributed.fsdp import fully_shard

from dist_utils import init_distributed
from model import Transformer


def main(train_loader, val_loader):
    mesh = init_distributed()
    model = Transformer(32000, 1024, 12)
    shard_model(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for tokens in train_loader:
        model(tokens).float().mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    print("val loss", evaluate(model, val_loader))


@torch.no_grad()
def evaluate(model, loader):
    losses = [model(tokens).float().logsumexp(-1).mean() for tokens in loader]
    return torch.stack(losses).mean().item()


def shard_model(model, mesh):
    for block in model.layers:
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
