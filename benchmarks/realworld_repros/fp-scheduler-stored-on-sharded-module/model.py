import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(16, 16) for _ in range(2)])
        self.head = nn.Linear(16, 16)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)

    def initialize_optimizer(self):
        self.optimizer = torch.optim.AdamW(self.parameters(), lr=1e-4)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=10)

    def save(self, path):
        torch.save({"scheduler_state_dict": self.scheduler.state_dict()}, path)
