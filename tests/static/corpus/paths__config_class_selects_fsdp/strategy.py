"""The data-parallel strategy a run asks for: FSDP1 (FullyShardedDataParallel) or FSDP2
(fully_shard), chosen by which options object the run's parallel config carries."""

from dataclasses import dataclass
from typing import Optional

import torch
from torch.distributed.fsdp import FullyShardedDataParallel, MixedPrecision, MixedPrecisionPolicy, fully_shard


@dataclass
class FSDPOptions:
    """FullyShardedDataParallel (FSDP1), one flat parameter per block."""

    use_orig_params: bool = True
    sync_module_states: bool = False


@dataclass
class FullyShardOptions:
    """fully_shard (FSDP2), one unit per block and the root."""

    reshard_after_forward: bool = True


@dataclass
class ParallelConfig:
    fsdp: Optional[FSDPOptions] = None
    fully_shard: Optional[FullyShardOptions] = None


class ParallelState:
    def __init__(self, config: Optional[ParallelConfig] = None):
        self._fsdp = config.fsdp if config is not None else None
        self._fully_shard = config.fully_shard if config is not None else None

    @property
    def options(self):
        """The strategy's options; fully_shard wins when a config carries both."""
        return self._fully_shard if self._fully_shard is not None else self._fsdp

    def parallelize(self, model, mesh):
        options = self.options
        if isinstance(options, FSDPOptions):
            mixed = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
            return FullyShardedDataParallel(
                model, device_mesh=mesh, mixed_precision=mixed, use_orig_params=options.use_orig_params,
                sync_module_states=options.sync_module_states,
            )
        if isinstance(options, FullyShardOptions):
            policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
            for block in model.layers:
                fully_shard(block, mesh=mesh, mp_policy=policy, reshard_after_forward=options.reshard_after_forward)
            fully_shard(model, mesh=mesh, mp_policy=policy, reshard_after_forward=options.reshard_after_forward)
        return model
