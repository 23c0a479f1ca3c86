import torch
from torch import nn
from torch.amp.grad_scaler import GradScaler


class TransformerModel(nn.Module):
    def __init__(self, scheduler_name: str):
        super().__init__()
        self.layers = nn.ModuleList([nn.Sequential(nn.Linear(16, 16), nn.GELU(), nn.Linear(16, 16)) for _ in range(4)])
        self.scaler = GradScaler(device="cuda", enabled=True)
        self.scheduler_name = scheduler_name

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def initialize_optimizer(self):
        self.optimizer = torch.optim.AdamW(self.parameters(), lr=1e-4)
        self.scheduler = self._get_scheduler(step_size=10)

    def _get_scheduler(self, **kwargs):
        if hasattr(torch.optim.lr_scheduler, self.scheduler_name):
            scheduler_class = getattr(torch.optim.lr_scheduler, self.scheduler_name)
        else:
            raise ValueError(f"Scheduler {self.scheduler_name} not found in torch.optim.lr_scheduler")
        return scheduler_class(self.optimizer, **kwargs)

    def save(self, path):
        torch.save({"scheduler": self.scheduler.state_dict(), "scaler": self.scaler.state_dict()}, path)
