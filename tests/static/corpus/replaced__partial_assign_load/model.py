import torch
from torch import nn


class LoRALinear(nn.Module):
    def __init__(self, dim: int, rank: int = 8):
        super().__init__()
        self.linear = nn.Linear(dim, dim)
        self.lora_a = nn.Parameter(torch.zeros(rank, dim))
        self.lora_b = nn.Parameter(torch.zeros(dim, rank))

    def forward(self, x):
        return self.linear(x) + x @ self.lora_a.t() @ self.lora_b.t()


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj = LoRALinear(dim)

    def forward(self, x):
        return x + self.proj(self.norm(x))


class LoRAModel(nn.Module):
    def __init__(self, vocab_size: int, dim: int, n_layers: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([Block(dim) for _ in range(n_layers)])
        self.head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        h = self.embed(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.head(h)


def mark_only_lora_as_trainable(model: nn.Module) -> None:
    """Freeze the base weights: only the adapters train."""
    for name, param in model.named_parameters():
        if "lora_" not in name:
            param.requires_grad = False
