from typing import Optional

import torch
from torch.distributed.fsdp import FullyShardedDataParallel, MixedPrecision, MixedPrecisionPolicy, fully_shard

from config import FSDP2Options, FSDPOptions, ParallelConfig


class ParallelState:
    def __init__(self, config: Optional[ParallelConfig] = None):
        self._fsdp = config.fsdp if config is not None else None
        self._fsdp2 = config.fsdp2 if config is not None else None

    @property
    def options(self):
        """The strategy's options; FSDP2 wins when a config carries both."""
        return self._fsdp2 if self._fsdp2 is not None else self._fsdp

    def parallelize(self, model, mesh):
        options = self.options
        if isinstance(options, FSDPOptions):
            mixed = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
            return FullyShardedDataParallel(
                model, device_mesh=mesh, mixed_precision=mixed, use_orig_params=options.use_orig_params,
                sync_module_states=options.sync_module_states,
            )
        if isinstance(options, FSDP2Options):
            policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
            for block in model.layers:
                fully_shard(block, mesh=mesh, mp_policy=policy, reshard_after_forward=options.reshard_after_forward)
            fully_shard(model, mesh=mesh, mp_policy=policy, reshard_after_forward=options.reshard_after_forward)
        return model
