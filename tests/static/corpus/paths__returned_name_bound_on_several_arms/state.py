from dataclasses import dataclass
from typing import Optional

from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, FSDPModule, fully_shard


@dataclass
class CheckpointConfig:
    """FSDP1's checkpoint settings (composer's `FSDPConfig`)."""

    state_dict_type: str = "full"
    legacy_format: bool = False
    auto_wrap: bool = True


@dataclass
class Checkpoint2Config:
    """FSDP2's checkpoint settings (composer's `FSDP2Config`)."""

    state_dict_type: str = "full"
    legacy_format: bool = False


@dataclass
class Parallelism:
    fsdp: Optional[CheckpointConfig] = None
    fsdp2: Optional[Checkpoint2Config] = None


class State:
    """The training state; the checkpoint configuration is FSDP1's or FSDP2's, whichever the
    parallelism record holds (composer's `State.fsdp_config`)."""

    def __init__(self, model, optimizer, parallelism: Optional[Parallelism] = None):
        self.model = model
        self.optimizer = optimizer
        self._config = parallelism.fsdp if parallelism is not None else None
        self._config2 = parallelism.fsdp2 if parallelism is not None else None

    @property
    def config(self):
        return self._config2 if self._config2 is not None else self._config

    @property
    def fsdp_enabled(self):
        for module in self.model.modules():
            if isinstance(module, FSDPModule):
                return True
        return False

    @property
    def state_dict_type(self):
        if not self.fsdp_enabled:
            return None
        if self.config is not None:
            return self.config.state_dict_type
        return "full"

    @property
    def sharded_state_dict_enabled(self):
        return self.config is not None and self.state_dict_type == "sharded"

    @property
    def load_legacy_sharded(self):
        """Old sharded checkpoints need their optimizer state flattened; FSDP1's configuration
        also asks for its own auto-wrapping."""
        should = self.config is not None and self.config.state_dict_type == "sharded" and self.config.legacy_format
        if isinstance(self.config, CheckpointConfig):
            should = should and self.config.auto_wrap
        return should

    def load_model_state(self, state_dict):
        for layer in self.model.layers:
            fully_shard(layer)
        fully_shard(self.model)
        self.rebuild_optimizer()
        self.model.load_state_dict(state_dict)

    def rebuild_optimizer(self):
        self.optimizer.param_groups.clear()
        self.optimizer.add_param_group({"params": list(self.model.parameters())})

    def load_optim_state(self, optim_state_dict):
        if self.fsdp_enabled and self.load_legacy_sharded:
            optim_state_dict = legacy_optim_state_dict_to_load(optim_state_dict, self.model, self.optimizer, self.state_dict_type)
        self.optimizer.load_state_dict(optim_state_dict)


def legacy_optim_state_dict_to_load(optim_state_dict, model, optim, state_dict_type="full"):
    if state_dict_type == "sharded":
        return FSDP.flatten_sharded_optim_state_dict(optim_state_dict, model, optim)  # expect: FSD203
    return FSDP.scatter_full_optim_state_dict(optim_state_dict, model)
