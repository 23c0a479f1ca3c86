import torch
from torch.distributed.fsdp import fully_shard

from model import Net


def main():
    model = Net()
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model.initialize_optimizer()
    model(torch.randn(2, 16)).sum().backward()
    model.optimizer.step()
    model.scheduler.step()
    model.save("ckpt.pt")
