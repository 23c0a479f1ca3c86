import torch

from export import export_full_weights
from strategy import ParallelState


class Trainer:
    """Builds the parallel state from the run's config, wraps the model on `fit()`."""

    def __init__(self, model, config, mesh):
        self.state = ParallelState(config)
        self.model = model
        self.mesh = mesh

    def _wrap_model(self):
        self.model = self.state.parallelize(self.model, self.mesh)

    def fit(self, loader, out):
        self._wrap_model()
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=3e-4)
        for tokens, labels in loader:
            torch.nn.functional.cross_entropy(self.model(tokens).flatten(0, 1), labels.flatten()).backward()
            optimizer.step()
            optimizer.zero_grad()
        export_full_weights(self.model, out)
