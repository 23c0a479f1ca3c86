import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_model_state_dict
from torch.distributed.fsdp import fully_shard

from config import TrainConfig
from dist_utils import init_distributed
from model import Transformer
from registry import register_trainer


@register_trainer("sft")
class SFTTrainer:
    """Supervised fine-tuning; the launcher builds a trainer by name and calls `train()`."""

    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.mesh = init_distributed()
        self.model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
        self.optimizer = None

    def prepare_model(self):
        for block in self.model.layers:
            fully_shard(block, mesh=self.mesh)
        fully_shard(self.model, mesh=self.mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.cfg.lr)

    def compute_loss(self, tokens, labels):
        logits = self.model(tokens)
        return F.cross_entropy(logits.flatten(0, 1), labels.flatten())

    def save_checkpoint(self, step: int):
        dcp.save({"model": get_model_state_dict(self.model)}, checkpoint_id=os.path.join(self.cfg.output_dir, f"step_{step}"))

    def train(self, loader):
        self.prepare_model()
        for step, (tokens, labels) in enumerate(loader):
            if step == self.cfg.max_steps:
                break
            loss = self.compute_loss(tokens, labels)
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            if dist.get_rank() == 0:
                print(f"step {step} loss {loss.item():.4f}")
            if step % self.cfg.save_every == 0:
                self.save_checkpoint(step)
