import torch
from torch import nn
from torch.amp.grad_scaler import GradScaler


class TransformerModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.layers = nn.ModuleList([nn.Sequential(nn.Linear(16, 16), nn.GELU(), nn.Linear(16, 16)) for _ in range(4)])
        self.scaler = GradScaler(device="cuda", enabled=True)
        self.config = config

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def initialize_optimizer(self):
        self.optimizer = torch.optim.AdamW(self.parameters(), lr=1e-4)
        self.scheduler = self._get_scheduler(step_size=self.config.scheduler.step_size)

    def _get_scheduler(self, **kwargs):
        name = self.config.scheduler.name
        if hasattr(torch.optim.lr_scheduler, name):
            scheduler_class = getattr(torch.optim.lr_scheduler, name)
        else:
            raise ValueError(f"Scheduler {name} not found in torch.optim.lr_scheduler")
        return scheduler_class(self.optimizer, **kwargs)

    def train_step(self, batch):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = self(batch).square().mean()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.optimizer.zero_grad()
        self.scheduler.step()
        return loss.item()

    def save(self, path, step):
        """The LR schedule, the loss scale and the optimizer's state: this rank's shards of it."""
        checkpoint = {
            "step": step,
            "optimizer_state_dict": self.optimizer.state_dict(),
            "scheduler_state_dict": self.scheduler.state_dict(),
            "scaler_state_dict": self.scaler.state_dict(),
        }
        torch.save(checkpoint, path)  # expect: FSD301
