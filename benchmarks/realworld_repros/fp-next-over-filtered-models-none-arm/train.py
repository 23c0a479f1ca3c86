import torch
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel

from ckpt import load_checkpoint, save_checkpoint
from model import Net


def main(domain_mesh, data_mesh, steps=10):
    model = Net()
    if domain_mesh is None:
        model = DistributedDataParallel(model)
    else:
        model = fully_shard(model, mesh=data_mesh)
    optimizer = torch.optim.Adam(model.parameters())
    load_checkpoint("ckpt", model)
    for step in range(steps):
        model(torch.randn(2, 4)).sum().backward()
        optimizer.step()
    save_checkpoint("ckpt", model, optimizer)
