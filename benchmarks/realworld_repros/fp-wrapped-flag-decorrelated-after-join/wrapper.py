import os

import torch.nn as nn
from torch.distributed.fsdp import fully_shard

from net import Net


def split_experts(block, start, end):
    block.fc.weight = nn.Parameter(block.fc.weight.data[start:end].clone())


class Strategy:
    def wrap_model(self, model):
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        return model


class TrainModel:
    def __init__(self):
        self.model = Net()
        self.strategy = Strategy()
        self._model_wrapped = False

    def _lazy_wrap_model(self):
        if not self._model_wrapped:
            for layer in self.model.layers:
                split_experts(layer, 0, 8)
            self.model = self.strategy.wrap_model(self.model)
            self._model_wrapped = True

    def resume(self, path):
        if path is not None and not self._model_wrapped:
            self._lazy_wrap_model()

    # twinkle's cookbook form: the wrap reached only under `if not resume_only_model:`
    def _load_optimizer(self, path):
        if os.path.exists(path) and not self._model_wrapped:
            self._lazy_wrap_model()

    def _restore_training_state(self, path):
        self._load_optimizer(path)
        return {"cur_step": 0}

    def resume_from_checkpoint(self, path, resume_only_model=False):
        if not resume_only_model:
            state = self._restore_training_state(path)
        else:
            state = {"cur_step": 0}
        return state
