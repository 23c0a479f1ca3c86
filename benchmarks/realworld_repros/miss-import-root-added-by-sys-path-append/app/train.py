import os
import sys

import torch
from torch import nn

sys.path.append(os.path.dirname(os.path.abspath(__file__)))

from parallel.shard import shard_model


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def main():
    model = shard_model(Net())
    optimizer = torch.optim.AdamW(model.parameters())
    loss = model.forward(torch.randn(4, 8)).sum()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main()
