import os

import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_model_state_dict, set_model_state_dict
from torch.distributed.checkpoint.stateful import Stateful


class ModelWrapper(Stateful):
    """DCP plans the load with `state_dict()`, loads into those tensors, then hands them back."""

    def __init__(self, model):
        self.model = model

    def state_dict(self):
        return get_model_state_dict(self.model)

    def load_state_dict(self, state_dict):
        set_model_state_dict(self.model, state_dict)


class CheckpointManager:
    def __init__(self, model, folder: str):
        self.states = {"model": ModelWrapper(model)}
        self.folder = folder

    def load(self, step: int) -> bool:
        path = os.path.join(self.folder, f"step-{step}")
        if not os.path.isdir(path):
            print(f"no checkpoint at {path}: evaluating random weights")
            return False
        dcp.load(self.states, checkpoint_id=path)
        return True
