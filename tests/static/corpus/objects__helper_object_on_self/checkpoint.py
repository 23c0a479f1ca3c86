import os

import torch
import torch.distributed as dist


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
        state = {"model": model.state_dict(), "step": step}
        if dist.get_rank() == 0:
            torch.save(state, path)  # expect: FSD301
        self.written.append(path)
        if len(self.written) > self.keep:
            self.written.pop(0)
