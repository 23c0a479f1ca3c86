import torch
from torch import nn


class Module(nn.Module):
    def save(self, file_name, _state_dict=None):
        sd = _state_dict if _state_dict is not None else self.state_dict()
        torch.save(sd, file_name)


class Net(Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
