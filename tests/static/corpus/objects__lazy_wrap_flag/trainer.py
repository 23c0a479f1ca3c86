import torch
import torch.distributed as dist

from model import MoEModel
from strategy import NativeFSDPStrategy, shard_experts


class TrainModel:
    """Wraps lazily, once: before the first step or when a checkpoint is restored."""

    def __init__(self):
        self.model = MoEModel()
        self.strategy = NativeFSDPStrategy()
        self._model_wrapped = False

    def _lazy_wrap_model(self) -> None:
        if not self._model_wrapped:
            for layer in self.model.layers:
                shard_experts(layer, dist.get_rank(), dist.get_world_size())
            self.model = self.strategy.wrap_model(self.model)

    def train(self, batches) -> None:
        self._lazy_wrap_model()
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-4)
        for x in batches:
            self.model(x).pow(2).mean().backward()
            optimizer.step()
            optimizer.zero_grad()
