import torch
from torch import nn


class QuantLinear(nn.Module):
    """A linear layer that records the largest activation it saw (its amax) for an fp8 export."""

    def __init__(self, dim_in: int, dim_out: int):
        super().__init__()
        self.linear = nn.Linear(dim_in, dim_out)
        self.register_buffer("_amax", torch.zeros(()))

    def forward(self, x):
        self._amax = torch.maximum(self._amax, x.detach().abs().amax())
        return self.linear(x)


class QuantMLP(nn.Module):
    def __init__(self, dim: int, n_layers: int):
        super().__init__()
        self.layers = nn.ModuleList([QuantLinear(dim, dim) for _ in range(n_layers)])
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.head(x)
