import torch

from config import FSDP2Options, FSDPOptions, ParallelConfig
from strategy import ParallelState


class Trainer:
    """Builds the parallel state from the run's config (a `ParallelConfig`, or a dict of the
    options of each strategy) and wraps the model; `fit()` trains it."""

    def __init__(self, model, parallel=None, mesh=None, compile_model=False, clip_grad=None, log_memory=False):
        self.state = ParallelState(self._parse_parallel(parallel))
        self.model = self.state.parallelize(torch.compile(model) if compile_model else model, mesh)
        self.clip_grad = clip_grad
        self.log_memory = log_memory
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=3e-4)

    @staticmethod
    def _parse_parallel(parallel):
        if parallel is not None and not isinstance(parallel, ParallelConfig):
            args = {}
            if "fsdp" in parallel and isinstance(parallel["fsdp"], FSDPOptions):
                args["fsdp"] = parallel["fsdp"]
            elif "fsdp" in parallel and isinstance(parallel["fsdp"], FSDP2Options):
                args["fsdp2"] = parallel["fsdp"]
            return ParallelConfig(**args) if len(args) > 0 else None
        return parallel

    def fit(self, loader):
        for tokens, labels in loader:
            torch.nn.functional.cross_entropy(self.model(tokens).flatten(0, 1), labels.flatten()).backward()
            if self.clip_grad is not None:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_grad)
            self.optimizer.step()
            self.optimizer.zero_grad()
            if self.log_memory:
                print(torch.cuda.max_memory_allocated())
