import torch
from torch import nn

from planner import wrap


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(nn.Linear(8, 8) for _ in range(4))
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def main(mesh):
    model = wrap(Net(), mesh)
    optimizer = torch.optim.AdamW(model.parameters())
    loss = model(torch.randn(2, 8)).sum()
    loss.backward()
    optimizer.step()
