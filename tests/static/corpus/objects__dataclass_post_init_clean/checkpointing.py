import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_optimizer_state_dict


class Checkpointer:
    """Writes consolidated files that a single process can read back for evaluation."""

    def __init__(self, folder: str):
        self.folder = folder

    def save(self, model, optimizer, step: int):
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        model_state = get_model_state_dict(model, options=options)
        optim_state = get_optimizer_state_dict(model, optimizer, options=options)
        if dist.get_rank() == 0:
            os.makedirs(self.folder, exist_ok=True)
            torch.save(model_state, os.path.join(self.folder, f"model-{step}.pt"))
            torch.save(optim_state, os.path.join(self.folder, f"optim-{step}.pt"))
