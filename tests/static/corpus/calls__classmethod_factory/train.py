from dataclasses import dataclass

import torch
from torch.distributed.fsdp import fully_shard

from dist_utils import init_distributed
from model import Transformer


@dataclass
class ModelArgs:
    vocab_size: int = 32000
    dim: int = 2048
    n_layers: int = 16
    n_heads: int = 16


def train(loader):
    mesh = init_distributed()
    model = Transformer.from_config(ModelArgs())
    for layer in model.layers:
        fully_shard(layer, mesh=mesh)  # expect: FSD103
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for batch in loader:
        model(batch).float().pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
