from dataclasses import dataclass

from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, fully_shard


@dataclass
class CheckpointConfig:
    state_dict_type: str = "full"
    load_monolith_rank0_only: bool = False


class State:
    def __init__(self, model, optimizer, config: CheckpointConfig):
        self.model = model
        self.optimizer = optimizer
        self._config = config

    @property
    def config(self):
        return self._config

    @property
    def state_dict_type(self):
        if self.config is not None:
            return self.config.state_dict_type
        return "full"

    @property
    def sharded_state_dict_enabled(self):
        return self.config is not None and self.state_dict_type == "sharded"

    @property
    def load_monolith_rank0_only(self):
        return self.config is not None and self.config.state_dict_type == "full" and self.config.load_monolith_rank0_only

    def load_model_state(self, state_dict):
        fully_shard(self.model)
        self.model.load_state_dict(state_dict)

    def load_optim_state(self, optim_state_dict):
        if self.load_monolith_rank0_only:
            optim_state_dict = legacy_optim_state_dict_to_load(optim_state_dict, self.model, self.optimizer, self.state_dict_type)
        self.optimizer.load_state_dict(optim_state_dict)


def legacy_optim_state_dict_to_load(optim_state_dict, model, optim, state_dict_type="full"):
    if state_dict_type == "sharded":
        return FSDP.flatten_sharded_optim_state_dict(optim_state_dict, model, optim)
    return FSDP.scatter_full_optim_state_dict(optim_state_dict, model)
