import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import fully_shard

from config import TrainConfig
from dist_utils import init_distributed
from model import Transformer


class BaseTrainer:
    """Shards the model, builds the optimizer, runs the loop and saves full checkpoints."""

    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.mesh = init_distributed()
        self.model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
        self.optimizer = None

    def prepare_model(self):
        for block in self.model.layers:
            fully_shard(block, mesh=self.mesh)
        fully_shard(self.model, mesh=self.mesh)

    def build_optimizer(self):
        params = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(params, lr=self.cfg.lr)

    def training_step(self, tokens, labels):
        logits = self.model(tokens)
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()

    def save_checkpoint(self, step: int):
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        state = get_model_state_dict(self.model, options=options)
        if dist.get_rank() == 0:
            torch.save(state, os.path.join(self.cfg.output_dir, f"model_{step}.pt"))

    def train(self, loader):
        self.prepare_model()
        self.build_optimizer()
        for step, (tokens, labels) in enumerate(loader):
            if step == self.cfg.max_steps:
                break
            self.training_step(tokens, labels)
            if step % self.cfg.save_every == 0:
                self.save_checkpoint(step)
