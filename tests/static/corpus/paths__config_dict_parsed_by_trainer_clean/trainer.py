import torch

from config import FSDP2Options, FSDPOptions, ParallelConfig
from export import export_full_weights
from strategy import ParallelState


class Trainer:
    """Builds the parallel state from the run's config (a `ParallelConfig`, or a dict of the
    options of each strategy), wraps the model on `fit()`."""

    def __init__(self, model, parallel=None, mesh=None):
        config = self._parse_parallel(parallel)
        self.state = ParallelState(config)
        self.model = model
        self.mesh = mesh

    @staticmethod
    def _parse_parallel(parallel):
        if parallel is not None and not isinstance(parallel, ParallelConfig):
            args = {}
            if "fsdp" in parallel and parallel["fsdp"] is not None:
                if isinstance(parallel["fsdp"], FSDPOptions):
                    args["fsdp"] = parallel["fsdp"]
                elif isinstance(parallel["fsdp"], FSDP2Options):
                    args["fsdp2"] = parallel["fsdp"]
                else:
                    args["fsdp"] = FSDPOptions(**parallel["fsdp"])
            if "tp" in parallel:
                args["tp_degree"] = parallel["tp"]
            return ParallelConfig(**args) if len(args) > 0 else None
        return parallel

    def fit(self, loader, out):
        self.model = self.state.parallelize(self.model, self.mesh)
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=3e-4)
        for tokens, labels in loader:
            torch.nn.functional.cross_entropy(self.model(tokens).flatten(0, 1), labels.flatten()).backward()
            optimizer.step()
            optimizer.zero_grad()
        export_full_weights(self.model, out)
