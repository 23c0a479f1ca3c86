import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict


class Checkpointer:
    """Writes a checkpoint every `interval` steps and keeps the last `keep` of them."""

    def __init__(self, folder: str, interval: int = 500, keep: int = 3):
        self.folder = folder
        self.interval = interval
        self.keep = keep
        self.written = []

    def due(self, step: int) -> bool:
        return step > 0 and step % self.interval == 0

    def save(self, model, optimizer, step: int):
        path = os.path.join(self.folder, f"step_{step}.pt")
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        state = {"model": get_model_state_dict(model, options=options), "step": step}
        if dist.get_rank() == 0:
            torch.save(state, path)
        self.written.append(path)
        if len(self.written) > self.keep:
            self.written.pop(0)
