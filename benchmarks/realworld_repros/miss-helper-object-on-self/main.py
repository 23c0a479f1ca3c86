import torch
from torch.distributed.fsdp import fully_shard

from ckpt import Checkpointer
from trainer import Trainer


def main():
    model = torch.nn.Linear(4, 4)
    fully_shard(model)
    trainer = Trainer(model, Checkpointer())
    trainer.save_checkpoint(0)


if __name__ == "__main__":
    main()
