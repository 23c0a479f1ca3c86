"""Models are prepared where they are built (the training script) and again by
`prepare_models`: preparing is meant to be idempotent, but the second call asks whether the
actor is an `FSDPModule`, not the LM it shards (torch 2.13 raises: fully_shard is applied twice)."""

from dataclasses import dataclass

import torch
from torch.distributed.fsdp import FSDPModule, MixedPrecisionPolicy, fully_shard

from model import DecoderLayer


def is_actor(model) -> bool:
    return getattr(model, "is_actor", False)


@dataclass
class StrategyConfig:
    fsdp: bool = False
    lr: float = 1e-6


class Strategy:
    def __init__(self, args, mesh):
        self.args = args
        self.mesh = mesh
        self.config = StrategyConfig(fsdp=args.fsdp, lr=args.lr)

    def prepare_model(self, model):
        # an actor's policy LM is sharded, not the actor around it
        model_to_wrap = model.model if is_actor(model) else model
        if isinstance(model, FSDPModule):
            return model
        policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for module in model_to_wrap.modules():
            if isinstance(module, DecoderLayer):
                fully_shard(module, mesh=self.mesh, mp_policy=policy)  # expect: FSD102
        for name, module in model_to_wrap.named_modules():
            if "lm_head" in name:
                fully_shard(module, mesh=self.mesh, mp_policy=policy)  # expect: FSD102
        fully_shard(model_to_wrap, mesh=self.mesh, mp_policy=policy)
        return model

    def prepare_models(self, actor, reference):
        setattr(actor, "is_actor", True)
        if self.config.fsdp:
            actor = self.prepare_model(actor)
            reference = self.prepare_model(reference)
        optimizer = torch.optim.AdamW(actor.parameters(), lr=self.config.lr)
        return actor, reference, optimizer
