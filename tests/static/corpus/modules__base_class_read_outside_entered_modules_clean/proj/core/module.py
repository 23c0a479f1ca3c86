import torch


class Module(torch.nn.Module):
    """The project's base: models describe themselves for the checkpoint's file names."""

    def __init__(self, name=None):
        super().__init__()
        self.name = name

    def describe(self):
        return self.name or type(self).__name__
