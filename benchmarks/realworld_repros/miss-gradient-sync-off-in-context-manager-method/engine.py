from contextlib import contextmanager

import torch
from torch.distributed.fsdp import fully_shard


class Engine:
    def __init__(self):
        model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
        for layer in model:
            fully_shard(layer)
        fully_shard(model)
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters())

    @contextmanager
    def no_sync(self):
        self.model.set_requires_gradient_sync(False)
        yield

    def forward_backward(self, x):
        self.model(x).sum().backward()

    def step_optimizer(self):
        self.optimizer.step()
