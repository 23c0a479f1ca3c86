# torch 2.13, CPU, one gloo rank, real fully_shard: replacing each param group's "params" with the
# sharded parameters after fully_shard makes step() update the model; done before fully_shard, the
# groups hold the old tensors again and step() changes nothing.

import torch

from dist_utils import init_distributed
from model import Transformer
from optim_sync import optimizer_follows_sharding
from parallel import activation_checkpointing, apply_fsdp


class Trainer:
    """Takes the model and an optimizer the user built over it, and parallelises both."""

    def __init__(self, model, optimizer, checkpoint_activations: bool = False):
        self.mesh = init_distributed()
        self.model = model
        self.optimizer = optimizer
        with optimizer_follows_sharding(optimizer, model):
            if checkpoint_activations:
                activation_checkpointing(model)
            apply_fsdp(model, self.mesh)

    def fit(self, loader):
        for tokens, labels in loader:
            logits = self.model(tokens)
            torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten()).backward()
            self.optimizer.step()
            self.optimizer.zero_grad()


def main(loader):
    model = Transformer(32000, 1024, 12)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    Trainer(model, optimizer, checkpoint_activations=True).fit(loader)
