import sys

import torch

from net import Net
from trainer import Trainer


def main():
    trainer = Trainer(Net(), fsdp_shard="--fsdp" in sys.argv)
    trainer.train_epoch([torch.ones(4, 8)])


if __name__ == "__main__":
    main()
