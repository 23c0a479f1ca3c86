"""FSDP2 for the RL models. The actor's language model is what gets sharded (its wrapper adds
no parameters); a model prepared early is prepared again by `prepare_models_and_optimizers`."""

import torch
from torch.distributed.fsdp import FSDPModule, fully_shard

from model import Block
from model_utils import is_actor


class FSDPStrategy:
    def __init__(self, mesh, lr: float = 1e-6):
        self.mesh = mesh
        self.lr = lr

    def prepare_model(self, model):
        model_to_wrap = model.model if is_actor(model) else model
        if isinstance(model_to_wrap, FSDPModule):
            return model
        for module in model_to_wrap.modules():
            if isinstance(module, Block):
                fully_shard(module, mesh=self.mesh)  # expect: FSD102
        fully_shard(model_to_wrap, mesh=self.mesh)  # expect: FSD102
        return model

    def prepare_models_and_optimizers(self, actor):
        setattr(actor, "is_actor", True)
        actor = self.prepare_model(actor)
        optimizer = torch.optim.AdamW(actor.parameters(), lr=self.lr)
        return actor, optimizer
