import argparse

import torch

from checkpointing import resume
from model import setup


class Trainer:
    def __init__(self, args) -> None:
        self.model = setup()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-3)
        self.step = resume(self.model, args.resume, args.dcp_api) if args.resume else 0

    def train_step(self, batch):
        loss = self.model(batch).sum()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--dcp-api", action="store_true")
    trainer = Trainer(parser.parse_args())
    for _ in range(10):
        trainer.train_step(torch.randn(4, 16))


if __name__ == "__main__":
    main()
