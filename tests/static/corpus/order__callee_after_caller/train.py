import torch
from torch.distributed.fsdp import fully_shard

from dist_utils import init_distributed
from model import Transformer


def main(train_loader, val_loader):
    mesh = init_distributed()
    model = Transformer(32000, 1024, 12)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)  # expect: FSD202
    shard_model(model, mesh)
    for tokens in train_loader:
        model(tokens).float().mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    print("val loss", evaluate(model, val_loader))


@torch.no_grad()
def evaluate(model, loader):
    losses = [model.forward(tokens).float().logsumexp(-1).mean() for tokens in loader]  # expect: FSD201
    return torch.stack(losses).mean().item()


def shard_model(model, mesh):
    for block in model.layers:
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
