import sys

import torch
import torch.nn as nn

from parallel import wrap
from trainer import Trainer


def main(mode: str) -> None:
    model = wrap(nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8)), mode)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    trainer = Trainer(model, optimizer)
    for _ in range(3):
        trainer.step(torch.randn(4, 8))


if __name__ == "__main__":
    main(sys.argv[1])
