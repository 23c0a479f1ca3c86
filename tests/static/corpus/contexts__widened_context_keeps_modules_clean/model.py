import torch
from torch import nn


class QuantLinear(nn.Module):
    """A linear layer with a per-tensor scale, exported as a packed low-precision weight."""

    def __init__(self, dim_in: int, dim_out: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim_out, dim_in) * 0.02)
        self.register_buffer("weight_scale", torch.ones(()))

    def forward(self, x):
        return x @ self.weight.t()


class QuantBlock(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.q = QuantLinear(dim, dim)
        self.k = QuantLinear(dim, dim)
        self.v = QuantLinear(dim, dim)
        self.o = QuantLinear(dim, dim)
        self.gate = QuantLinear(dim, 4 * dim)
        self.up = QuantLinear(dim, 4 * dim)
        self.down = QuantLinear(4 * dim, dim)

    def forward(self, x):
        attn = torch.softmax(self.q(x) @ self.k(x).transpose(-1, -2), -1) @ self.v(x)
        x = x + self.o(attn)
        return x + self.down(torch.nn.functional.silu(self.gate(x)) * self.up(x))


class QuantMLP(nn.Module):
    def __init__(self, dim: int, n_layers: int):
        super().__init__()
        self.embed = QuantLinear(dim, dim)
        self.layers = nn.ModuleList([QuantBlock(dim) for _ in range(n_layers)])
        self.head = QuantLinear(dim, dim)

    def forward(self, x):
        x = self.embed(x)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)
