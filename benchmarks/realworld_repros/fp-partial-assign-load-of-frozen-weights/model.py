import torch
from torch import nn


class LoRALinear(nn.Module):
    def __init__(self, dim: int, rank: int = 4):
        super().__init__()
        self.linear = nn.Linear(dim, dim)
        self.lora_a = nn.Parameter(torch.zeros(rank, dim))
        self.lora_b = nn.Parameter(torch.zeros(dim, rank))

    def forward(self, x):
        return self.linear(x) + x @ self.lora_a.t() @ self.lora_b.t()


class Net(nn.Module):
    def __init__(self, dim: int = 64, n_layers: int = 4):
        super().__init__()
        self.layers = nn.ModuleList(LoRALinear(dim) for _ in range(n_layers))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def mark_only_lora_as_trainable(model: nn.Module) -> None:
    for name, param in model.named_parameters():
        if "lora_" not in name:
            param.requires_grad = False
