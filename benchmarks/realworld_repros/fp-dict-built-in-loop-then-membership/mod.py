import io
import torch
from torch import nn


class Base(nn.Module):
    def save(self, file_name, _state_dict=None):
        buf = io.BytesIO()
        _sd = _state_dict if _state_dict is not None else self.state_dict()
        torch.save(_sd, buf)

    def load(self, file_name):
        self.load_state_dict(torch.load(file_name))
