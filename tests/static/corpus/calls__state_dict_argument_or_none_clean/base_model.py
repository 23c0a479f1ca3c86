import io

import torch
from torch import nn


class SavableModule(nn.Module):
    """A model that writes itself, or a state dict its caller gathered for it."""

    def save(self, file_name, _state_dict=None):
        buffer = io.BytesIO()
        state = _state_dict if _state_dict is not None else self.state_dict()
        torch.save(state, buffer)
        with open(file_name, "wb") as handle:
            handle.write(buffer.getvalue())

    def export(self, file_name, _state_dict=None):
        if _state_dict is None:
            _state_dict = self.state_dict()
        torch.save(_state_dict, file_name)
