import json
import os

import torch
import torch.distributed as dist

from model import MoEModel
from strategy import NativeFSDPStrategy, shard_experts


class TrainModel:
    """Wraps lazily, once: when an adapter's optimizer state is restored, or before training."""

    def __init__(self):
        self.model = MoEModel()
        self.strategy = NativeFSDPStrategy()
        self.optimizer_state = None
        self._model_wrapped = False

    def _lazy_wrap_model(self) -> None:
        if not self._model_wrapped:
            for layer in self.model.layers:
                shard_experts(layer, dist.get_rank(), dist.get_world_size())
            self.model = self.strategy.wrap_model(self.model)
            self._model_wrapped = True

    def _load_optimizer(self, path: str, adapter_name: str) -> None:
        optimizer_path = os.path.join(path, adapter_name, "optimizer")
        if not os.path.exists(optimizer_path):
            return
        if not self._model_wrapped:
            self._lazy_wrap_model()  # the optimizer's state is sharded like the wrapped model
            self._model_wrapped = False  # mistaken: "wrap again once the next adapter is loaded"
        self.optimizer_state = torch.load(optimizer_path, weights_only=True)  # applied once the optimizer is built

    def _restore_training_state(self, path: str, adapter_name: str) -> dict:
        with open(os.path.join(path, "trainer_state.json")) as f:
            state = json.load(f)
        self._load_optimizer(path, adapter_name)
        return state

    def resume_from_checkpoint(self, path: str, adapter_name: str, resume_only_model: bool = False) -> dict:
        if not resume_only_model:
            state = self._restore_training_state(path, adapter_name)
        else:
            with open(os.path.join(path, "trainer_state.json")) as f:
                state = json.load(f)
        return {"step": state["step"]}

    def train(self, batches) -> None:
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-4)
        if self.optimizer_state is not None:
            optimizer.load_state_dict(self.optimizer_state)
        for x in batches:
            self.model(x).pow(2).mean().backward()
            optimizer.step()
            optimizer.zero_grad()
