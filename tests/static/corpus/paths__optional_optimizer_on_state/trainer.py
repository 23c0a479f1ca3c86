# A framework's Trainer keeps what the user gives it on a state object, and the state
# parallelises the model. The rebuild of the optimizer's param groups over the sharded parameters
# runs only for an optimizer given to `parallelize`, and the state passes none: the user's
# optimizer keeps the parameters fully_shard replaced.
import contextlib

import torch

from dist_utils import init_distributed
from model import Transformer
from optim_sync import optimizer_follows_sharding
from parallel import apply_fsdp


def parallelize(model, mesh, optimizer=None):
    with optimizer_follows_sharding(optimizer, model) if optimizer is not None else contextlib.nullcontext():
        apply_fsdp(model, mesh)


class State:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def apply_fsdp(self, mesh):
        parallelize(self.model, mesh)


class Trainer:
    def __init__(self, model, optimizer):
        self.state = State(model, optimizer)
        self.state.apply_fsdp(init_distributed())

    def fit(self, loader):
        for tokens, labels in loader:
            logits = self.state.model(tokens)
            torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten()).backward()
            self.state.optimizer.step()
            self.state.optimizer.zero_grad()


def main(loader):
    model = Transformer(32000, 1024, 12)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)  # expect: FSD202
    Trainer(model, optimizer).fit(loader)
