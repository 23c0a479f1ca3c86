import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from ckpt import Checkpointer


class Trainer:
    def __init__(self):
        self.model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
        for layer in self.model:
            fully_shard(layer)
        fully_shard(self.model)
        self.optimizer = torch.optim.AdamW(self.model.parameters())
        self.checkpointer = Checkpointer("ckpt.pt")

    @property
    def training_state(self):
        return {"model": self.model, "optimizer": self.optimizer}

    def save(self, step):
        self.checkpointer.save_checkpoint(step=step, **self.training_state)


def main():
    trainer = Trainer()
    trainer.save(0)


if __name__ == "__main__":
    main()
