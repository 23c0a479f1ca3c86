import torch
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel

from checkpoint import save_checkpoint
from model import Surrogate


def setup(domain_mesh, data_mesh):
    model = Surrogate()
    if domain_mesh is None:
        model = DistributedDataParallel(model)
    else:
        for block in model.blocks:
            fully_shard(block, mesh=data_mesh)
        model = fully_shard(model, mesh=data_mesh)
    return model


def main(domain_mesh, data_mesh, epochs: int = 10):
    model = setup(domain_mesh, data_mesh)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        loss = model(torch.randn(64, 3)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        save_checkpoint(f"checkpoint_{epoch}.pt", model, optimizer)
