import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.fsdp import fully_shard

from config import TrainConfig
from dist_utils import init_distributed
from model import Transformer


class EMATrainer:
    """Trains with an exponential moving average of the weights, kept beside the sharded model."""

    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.mesh = init_distributed()
        self.model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
        self.ema_state = None

    def setup(self):
        for block in self.model.layers:
            fully_shard(block, mesh=self.mesh)
        fully_shard(self.model, mesh=self.mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.cfg.lr)
        if self.cfg.ema_decay > 0:
            self.init_ema()

    def init_ema(self):
        self.ema_state = {}
        for name, param in self.model.named_parameters():
            if param.requires_grad:
                self.ema_state[name] = param.detach().clone()

    @torch.no_grad()
    def update_ema(self):
        for name, param in self.model.named_parameters():
            if name in self.ema_state:
                self.ema_state[name].mul_(self.cfg.ema_decay).add_(param.detach(), alpha=1 - self.cfg.ema_decay)

    def save(self, step: int):
        if self.ema_state is not None and dist.get_rank() == 0:
            torch.save(self.ema_state, os.path.join(self.cfg.output_dir, f"ema_{step}.pt"))  # expect: FSD301

    def fit(self, loader):
        self.setup()
        for step, (tokens, labels) in enumerate(loader):
            if step == self.cfg.max_steps:
                break
            logits = self.model(tokens)
            F.cross_entropy(logits.flatten(0, 1), labels.flatten()).backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            if self.ema_state is not None:
                self.update_ema()
            if step % self.cfg.save_every == 0:
                self.save(step)
