import torch

from trainer import Trainer


def batches(n: int = 1000):
    for _ in range(n):
        yield torch.randint(0, 32000, (8, 1025), device="cuda")


if __name__ == "__main__":
    trainer = Trainer()  # expect: FSD103
    trainer.train(batches())
