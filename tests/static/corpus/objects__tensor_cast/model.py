import torch
from torch import nn


class GroupedExperts(nn.Module):
    """Experts stored as one weight tensor, [n_experts * hidden, dim]."""

    def __init__(self, n_experts: int, dim: int, hidden: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_experts * hidden, dim))
        self.proj = nn.Linear(hidden, dim)
        self.n_experts = n_experts

    def forward(self, x):
        h = torch.nn.functional.linear(x, self.weight)
        return self.proj(h.view(*x.shape[:-1], self.n_experts, -1).sum(-2))
