from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict

from parallel import shard_model


@dataclass
class ShardingConfig:
    """How the trainer shards its model. With `load_on_rank0`, only rank 0 reads a checkpoint into
    the plain model, which is sharded afterwards and broadcast from rank 0."""

    reshard_after_forward: bool = True
    load_on_rank0: bool = False


class TrainState:
    def __init__(self, model, config):
        self.model = model
        self.config = config

    def load(self, path):
        """Read a checkpoint: on rank 0 only into the plain model, which is sharded now, or on
        every rank into the sharded one."""
        if self.config.load_on_rank0:
            if dist.get_rank() == 0:
                self.model.load_state_dict(torch.load(path))
            shard_model(self.model, self.config)
        else:
            set_model_state_dict(self.model, torch.load(path), options=StateDictOptions(full_state_dict=True))


def load_checkpoint(state, path):
    state.load(path)
