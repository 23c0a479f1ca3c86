import torch
from torch.distributed.fsdp import fully_shard

from method import MaskedModeling


def shard(model):
    for block in model.encoder.blocks:
        fully_shard(block)
    fully_shard(model.encoder)
    fully_shard(model)
    return model


def main():
    model = shard(MaskedModeling())
    optim = torch.optim.AdamW(model.parameters())
    x, mask = torch.randn(2, 4, 16), torch.zeros(2, 4, 1)
    model(x, mask).pow(2).mean().backward()
    optim.step()
    model.eval()
    with torch.no_grad():
        model(x, mask)
