import torch
from torch import nn


class SequenceModel(nn.Module):
    """Keeps its own optimizer and LR scheduler, as sequence-model trainers often do."""

    def __init__(self, dim: int = 64, depth: int = 4):
        super().__init__()
        self.layers = nn.ModuleList(nn.TransformerEncoderLayer(dim, 4, batch_first=True) for _ in range(depth))
        self.head = nn.Linear(dim, dim)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)

    def initialize_optimizer(self, lr: float):
        self.optimizer = torch.optim.AdamW(self.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=100, gamma=0.5)
