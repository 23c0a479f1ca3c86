import sys

import torch
import torch.distributed.checkpoint as dcp

from trainer import Trainer


def main():
    trainer = Trainer()
    if len(sys.argv) > 1:
        trainer.wrap()
        dcp.load({"model": trainer.model.state_dict()}, checkpoint_id=sys.argv[1])
    trainer.prepare_experts()
    if not trainer._wrapped:
        trainer.wrap()
    trainer.fit([torch.randn(8, 64) for _ in range(10)])


if __name__ == "__main__":
    main()
