import sys

import torch

from trainer import TrainModel


def main():
    trainer = TrainModel()
    if len(sys.argv) > 1:
        trainer._lazy_wrap_model()  # restore a checkpoint into the wrapped model first
        torch.distributed.checkpoint.load({"model": trainer.model.state_dict()}, checkpoint_id=sys.argv[1])
    trainer.train([torch.randn(8, 64) for _ in range(10)])


if __name__ == "__main__":
    main()
