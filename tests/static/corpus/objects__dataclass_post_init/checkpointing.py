import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import get_model_state_dict, get_optimizer_state_dict


class Checkpointer:
    """Writes consolidated files that a single process can read back for evaluation."""

    def __init__(self, folder: str):
        self.folder = folder

    def save(self, model, optimizer, step: int):
        model_state = get_model_state_dict(model)
        optim_state = get_optimizer_state_dict(model, optimizer)
        if dist.get_rank() == 0:
            os.makedirs(self.folder, exist_ok=True)
            torch.save(model_state, os.path.join(self.folder, f"model-{step}.pt"))  # expect: FSD301
            torch.save(optim_state, os.path.join(self.folder, f"optim-{step}.pt"))  # expect: FSD301
