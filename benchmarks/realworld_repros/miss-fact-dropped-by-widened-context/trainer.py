import contextlib

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType, fully_shard


@contextlib.contextmanager
def state_dict_type_context(module):
    with FSDP.state_dict_type(module, StateDictType.FULL_STATE_DICT):
        yield


class State:
    def __init__(self, model, fsdp2):
        self.model = model
        self.fsdp2 = fsdp2

    def apply_fsdp(self):
        for block in self.model.blocks:
            fully_shard(block)
        fully_shard(self.model)

    def load(self, path):
        with state_dict_type_context(self.model):
            self.model.load_state_dict(torch.load(path))


class Trainer:
    def __init__(self, model, fsdp2=False, load_path=None):
        self.state = State(model, fsdp2)
        if fsdp2:
            self.state.apply_fsdp()
        if load_path is not None:
            self.state.load(load_path)
