import copy

import torch
from torch.distributed.fsdp import fully_shard

from model import Denoiser
from utils.checkpoint import Checkpointer


class FlowMatchingTrainer:
    def __init__(self, out_dir: str, lr: float = 1e-4):
        self.denoiser = Denoiser()
        self.ema = copy.deepcopy(self.denoiser).requires_grad_(False)
        for block in self.denoiser.blocks:
            fully_shard(block)
        fully_shard(self.denoiser)
        self.optimizer = torch.optim.AdamW(self.denoiser.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda s: min(1.0, s / 1000))
        self.checkpointer = Checkpointer(out_dir)
        self.step = 0

    @property
    def training_state(self):
        return {"model": self.denoiser, "ema": self.ema, "optimizer": self.optimizer, "scheduler": self.scheduler}

    def train_step(self, x0, noise, t):
        xt = (1 - t) * x0 + t * noise
        loss = ((self.denoiser(xt) - (noise - x0)) ** 2).mean()
        loss.backward()
        self.optimizer.step()
        self.scheduler.step()
        self.optimizer.zero_grad()
        self.step += 1
        if self.step % 5000 == 0:
            self.checkpointer.save_checkpoint(step=self.step, **self.training_state, metadata={"lr": 1e-4})


def main(loader):
    trainer = FlowMatchingTrainer("/checkpoints/fm")
    for x0, noise, t in loader:
        trainer.train_step(x0, noise, t)
