from torch import nn

from base import ScaledHead


class ValueHead(ScaledHead):
    def __init__(self, dim: int):
        super().__init__(dim)
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, hidden):
        return self.out(self.scaled(self.proj(hidden))).squeeze(-1)
