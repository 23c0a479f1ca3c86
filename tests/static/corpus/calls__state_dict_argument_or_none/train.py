import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from base_model import SavableModule
from checkpoint import save_checkpoint, save_snapshot


class Net(SavableModule):
    def __init__(self, width=16, depth=2):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Trainer:
    def __init__(self):
        self.model = self.setup()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-3)

    def setup(self):
        model = Net()
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        return model

    def fit(self, steps):
        for step in range(steps):
            loss = self.model(torch.randn(4, 16)).sum()
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            if step % 100 == 0:
                save_snapshot(f"snapshot_{step}.pt", self.model)
        save_checkpoint("final.pt", self.model)


def main():
    Trainer().fit(1000)
