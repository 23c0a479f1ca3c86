import os

import torch
import torch.distributed as dist
import torch.nn.functional as F

from registry import register_trainer
from sft_trainer import SFTTrainer


@register_trainer("dpo")
class DPOTrainer(SFTTrainer):
    """Preference tuning: only the loss and the checkpoint format differ from SFT."""

    def compute_loss(self, tokens, labels):
        chosen, rejected = self.model(tokens).chunk(2)
        return -F.logsigmoid(self.cfg.beta * (chosen - rejected).mean(-1)).mean()

    def save_checkpoint(self, step: int):
        if dist.get_rank() == 0:
            torch.save({"model": self.model.state_dict(), "step": step}, os.path.join(self.cfg.output_dir, f"dpo_{step}.pt"))  # expect: FSD301
