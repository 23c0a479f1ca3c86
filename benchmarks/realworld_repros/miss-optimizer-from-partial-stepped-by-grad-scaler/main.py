from functools import partial

import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from trainer import Trainer


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return self.lin(x)


def wrap_model_fsdp(model):
    for block in model:
        fully_shard(block)
    fully_shard(model)
    return model


def main():
    model = nn.Sequential(Block(), Block())
    optimizer_init = partial(torch.optim.AdamW, lr=1e-4, weight_decay=0.1)
    optimizer = optimizer_init(model.parameters())
    wmodel = wrap_model_fsdp(model)
    trainer = Trainer(wmodel, optimizer)
    trainer.step(torch.randn(4, 8))
