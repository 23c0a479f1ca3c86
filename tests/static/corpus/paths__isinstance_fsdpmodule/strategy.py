"""FSDP2 for the policy: its transformer is sharded block by block, then as a whole. A policy
prepared early (to free host memory before the rollout engine starts) is prepared again by
`prepare_models_and_optimizers`, so `prepare_model` must recognise a sharded one."""

import torch
from torch.distributed.fsdp import FSDPModule, MixedPrecisionPolicy, fully_shard


class FSDPStrategy:
    def __init__(self, mesh, lr: float = 1e-6):
        self.mesh = mesh
        self.lr = lr
        self.mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)

    def prepare_model(self, policy):
        if isinstance(policy, FSDPModule):  # the wrapper is never sharded: always false
            return policy
        for block in policy.model.layers:
            fully_shard(block, mesh=self.mesh, mp_policy=self.mp_policy)  # expect: FSD102
        fully_shard(policy.model, mesh=self.mesh, mp_policy=self.mp_policy)
        return policy

    def prepare_models_and_optimizers(self, policy):
        policy = self.prepare_model(policy)
        optimizer = torch.optim.AdamW(policy.parameters(), lr=self.lr, weight_decay=0.0)
        return policy, optimizer
