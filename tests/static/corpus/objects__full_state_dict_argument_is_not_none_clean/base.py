import io

import torch
from torch import nn


class Exportable(nn.Module):
    """A module that writes itself to one file: its weights, and the arguments it was built with."""

    def __init__(self, **arguments):
        super().__init__()
        self.arguments = arguments

    def export(self, file_name, state_dict=None):
        buffer = io.BytesIO()
        weights = state_dict if state_dict is not None else self.state_dict()
        torch.save({"weights": weights, "arguments": self.arguments}, buffer)
        with open(file_name, "wb") as f:
            f.write(buffer.getvalue())
