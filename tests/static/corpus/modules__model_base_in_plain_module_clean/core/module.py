import torch.nn as nn


class Module(nn.Module):
    """The project's base of every network: a name and a version for its checkpoints."""

    def __init__(self, name="model"):
        super().__init__()
        self.name = name
        self.version = 1

    def num_parameters(self):
        return sum(p.numel() for p in self.parameters())
