import os

import torch
import torch.distributed as dist


def save_checkpoint(*, model, optimizer, step: int, folder: str):
    state = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "step": step,
    }
    if dist.get_rank() == 0:
        torch.save(state, os.path.join(folder, f"step-{step}.pt"))  # expect: FSD301
