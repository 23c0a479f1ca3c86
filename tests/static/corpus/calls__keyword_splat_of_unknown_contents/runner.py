import dataclasses
from dataclasses import dataclass, field
from typing import Optional

import torch
from torch.distributed.fsdp import FSDPModule

from model import Encoder


class ContrastiveRunner:
    def __init__(self, model, lr: float = 1e-4, dp_config=None, mesh=None):
        self.model = model
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)  # expect: FSD202
        if dp_config is not None:
            self.model.apply_fsdp(mesh)

    def train_batch(self, views, last_micro_batch: bool = True):
        if isinstance(self.model, FSDPModule):
            self.model.set_requires_gradient_sync(last_micro_batch)
        a, b = (self.model(v).mean(1) for v in views)
        logits = a @ b.T
        loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(a), device=logits.device))
        loss.backward()
        if last_micro_batch:
            self.optimizer.step()
            self.optimizer.zero_grad()
        return loss.detach()


@dataclass
class RunnerConfig:
    lr: float = 1e-4
    dp_config: Optional[dict] = None
    extra: dict = field(default_factory=dict)

    def runner_kwargs(self):
        kwargs = dataclasses.asdict(self)
        kwargs.update(kwargs.pop("extra"))
        return kwargs

    def build(self, mesh):
        return ContrastiveRunner(Encoder(), mesh=mesh, **self.runner_kwargs())
