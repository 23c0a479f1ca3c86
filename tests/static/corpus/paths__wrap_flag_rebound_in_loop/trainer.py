import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp

from model import MoEModel
from strategy import NativeFSDPStrategy, shard_experts


class TrainModel:
    """Wraps lazily, once: when the first adapter's checkpoint is restored, or before training."""

    def __init__(self):
        self.model = MoEModel()
        self.strategy = NativeFSDPStrategy()
        self._model_wrapped = False

    def _lazy_wrap_model(self) -> None:
        if not self._model_wrapped:
            for layer in self.model.layers:
                shard_experts(layer, dist.get_rank(), dist.get_world_size())
            self.model = self.strategy.wrap_model(self.model)
            self._model_wrapped = True

    def _load_optimizer(self, path) -> None:
        if path is not None and not self._model_wrapped:
            self._lazy_wrap_model()  # the optimizer's state is sharded like the wrapped model

    def resume_from_checkpoint(self, path, adapter_name: str) -> None:
        self._load_optimizer(path)
        if path is not None:
            dcp.load({"model": self.model.state_dict()}, checkpoint_id=f"{path}/{adapter_name}")
            self._model_wrapped = False  # mistaken: "wrap again with this adapter loaded"

    def train(self, batches) -> None:
        self._lazy_wrap_model()
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-4)
        for x in batches:
            self.model(x).pow(2).mean().backward()
            optimizer.step()
            optimizer.zero_grad()
