import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from groups import build_param_groups


def main():
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))
    optimizer = torch.optim.AdamW(build_param_groups(model, 1e-4))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    model(torch.randn(2, 8)).sum().backward()
    optimizer.step()
