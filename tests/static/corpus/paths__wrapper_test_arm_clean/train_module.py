import torch

from contexts import microbatch_context


class TrainModule:
    """Runs micro-batches for a model that the launcher wraps with DDP or shards with FSDP2."""

    def __init__(self, model: torch.nn.Module, optimizer: torch.optim.Optimizer):
        self.model = model
        self.optimizer = optimizer

    def train_batch(self, micro_batches) -> None:
        for index, batch in enumerate(micro_batches):
            with microbatch_context(self.model, index, len(micro_batches)):
                self.model(batch).mean().backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
