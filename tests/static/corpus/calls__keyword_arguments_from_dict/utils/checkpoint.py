import os

import torch
import torch.distributed as dist


class Checkpointer:
    def __init__(self, directory: str):
        self.directory = directory

    def save_checkpoint(self, step, model, ema, optimizer, scheduler, metadata=None):
        path = os.path.join(self.directory, f"step_{step:08d}.pt")
        weights = model.state_dict()
        if dist.get_rank() == 0:
            torch.save({"model": weights, "ema": ema, "step": step, "metadata": metadata}, path)  # expect: FSD301
        dist.barrier()
