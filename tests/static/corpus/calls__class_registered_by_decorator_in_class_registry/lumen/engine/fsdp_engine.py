import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import fully_shard

from lumen.engine.base_engine import BaseEngine, EngineRegistry


class PolicyModel(nn.Module):
    def __init__(self, dim, n_layers):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_layers))
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.head(x)


@EngineRegistry.register(backend="fsdp2")
class FSDP2Engine(BaseEngine):
    def initialize(self):
        module = PolicyModel(self.config.dim, self.config.n_layers)
        for layer in module.layers:
            fully_shard(layer)
        fully_shard(module)
        self.module = module
        self.optimizer = torch.optim.AdamW(self.module.parameters(), lr=self.config.lr)

    def train_step(self, batch):
        loss = self.module(batch).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    def save_checkpoint(self, path):
        if dist.get_rank() == 0:
            torch.save(self.module.state_dict(), path)  # expect: FSD301
