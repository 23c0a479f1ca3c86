import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict


class Checkpointer:
    def __init__(self, directory: str):
        self.directory = directory

    def save_checkpoint(self, step, model, ema, optimizer, scheduler, metadata=None):
        path = os.path.join(self.directory, f"step_{step:08d}.pt")
        # gathered on every rank (a collective), offloaded to the CPU
        weights = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        if dist.get_rank() == 0:
            torch.save({"model": weights, "ema": ema, "step": step, "metadata": metadata}, path)
        dist.barrier()
