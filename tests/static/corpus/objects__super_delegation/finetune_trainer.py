import os

import torch
import torch.distributed as dist

from base_trainer import BaseTrainer


class FinetuneTrainer(BaseTrainer):
    """Fine-tunes with frozen embeddings and keeps a copy of the tuned weights beside each checkpoint."""

    def prepare_model(self):
        super().prepare_model()
        if self.cfg.freeze_embeddings:
            for param in self.model.tok_embeddings.parameters():
                param.requires_grad_(False)

    def save_checkpoint(self, step: int):
        super().save_checkpoint(step)
        if dist.get_rank() == 0:
            torch.save(self.model.state_dict(), os.path.join(self.cfg.output_dir, f"tuned_{step}.pt"))  # expect: FSD301
