import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_model_state_dict, set_model_state_dict
from torch.distributed.checkpoint.stateful import Stateful


class ModelWrapper(Stateful):
    def __init__(self, model):
        self.model = model

    def state_dict(self):
        return get_model_state_dict(self.model)

    def load_state_dict(self, state_dict):
        set_model_state_dict(self.model, state_dict)


class CheckpointManager:
    def __init__(self, model, folder):
        self.states = {"model": ModelWrapper(model)}
        self.folder = folder

    def load(self):
        dcp.load(self.states, checkpoint_id=self.folder)
        return True
