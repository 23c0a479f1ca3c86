import argparse

import torch

from trainer import TrainModel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default=None)
    parser.add_argument("--resume-only-model", action="store_true")
    args = parser.parse_args()
    trainer = TrainModel()
    if args.resume:
        for adapter in ["default", "reward"]:
            trainer.resume_from_checkpoint(args.resume, adapter, resume_only_model=args.resume_only_model)
    trainer._lazy_wrap_model()  # expert parallelism and FSDP once the adapters are in
    trainer.train([torch.randn(8, 64) for _ in range(10)])


if __name__ == "__main__":
    main()
