import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from recipe.grpo.workers.actor import Actor


class Worker:
    def __init__(self):
        model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2))
        for layer in model:
            fully_shard(layer)
        fully_shard(model)
        optimizer = torch.optim.AdamW(model.parameters())
        self.actor = Actor(model, optimizer)

    def update_actor(self, batch):
        self.actor.update(batch)
