import sys

import torch

from trainer import TrainModel


def main():
    trainer = TrainModel()
    resume = sys.argv[1] if len(sys.argv) > 1 else None
    for adapter in ["default", "reward"]:
        trainer.resume_from_checkpoint(resume, adapter)
    trainer.train([torch.randn(8, 64) for _ in range(10)])


if __name__ == "__main__":
    main()
