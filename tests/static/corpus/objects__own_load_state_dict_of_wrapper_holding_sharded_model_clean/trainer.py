import sys

import torch

from ema import EMATracker
from model import build


class Trainer:
    def __init__(self, ema_path: str) -> None:
        self.model = build()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-3)
        self.ema = EMATracker(self.model)
        if ema_path:
            self.ema.load_state_dict(torch.load(ema_path, map_location="cpu"))

    def step(self, batch) -> None:
        self.model(batch).sum().backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.ema.update()


def main() -> None:
    trainer = Trainer(sys.argv[1] if len(sys.argv) > 1 else "")
    for _ in range(10):
        trainer.step(torch.randn(4, 16))


if __name__ == "__main__":
    main()
