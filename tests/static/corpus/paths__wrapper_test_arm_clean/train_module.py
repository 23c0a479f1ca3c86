import contextlib

import torch
from torch.distributed.fsdp import FSDPModule
from torch.nn.parallel import DistributedDataParallel as DDP


class TrainModule:
    """Runs micro-batches for a model that the launcher wraps with DDP or shards with FSDP2."""

    def __init__(self, model: torch.nn.Module, optimizer: torch.optim.Optimizer):
        self.model = model
        self.optimizer = optimizer

    @contextlib.contextmanager
    def _microbatch_context(self, index: int, count: int):
        with contextlib.ExitStack() as stack:
            last = index == count - 1
            if isinstance(self.model, FSDPModule):
                self.model.set_is_last_backward(last)
            if isinstance(self.model, DDP) and not last:
                stack.enter_context(self.model.no_sync())
            yield

    def train_batch(self, micro_batches) -> None:
        for index, batch in enumerate(micro_batches):
            with self._microbatch_context(index, len(micro_batches)):
                self.model(batch).mean().backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
