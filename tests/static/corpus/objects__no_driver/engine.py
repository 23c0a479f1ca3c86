import torch
from torch.distributed.fsdp import fully_shard


class Engine:
    """A training engine that a launcher outside this package drives."""

    def __init__(self, model, lr: float, mesh):
        self.model = model
        self.lr = lr
        self.mesh = mesh
        self.optimizer = None

    def shard(self):
        for block in self.model.layers:
            fully_shard(block, mesh=self.mesh)
        fully_shard(self.model, mesh=self.mesh)

    def create_optimizer(self):
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.lr)

    def step(self, batch):
        loss = self.model(batch).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    def prepare(self):
        """Everything the launcher needs before the first step."""
        self.create_optimizer()  # expect: FSD202
        self.shard()
