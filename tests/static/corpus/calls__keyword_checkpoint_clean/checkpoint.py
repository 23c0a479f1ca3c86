import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_optimizer_state_dict


def save_checkpoint(*, model, optimizer, step: int, folder: str):
    options = StateDictOptions(full_state_dict=True, cpu_offload=True)
    state = {
        "model": get_model_state_dict(model, options=options),
        "optimizer": get_optimizer_state_dict(model, optimizer, options=options),
        "step": step,
    }
    if dist.get_rank() == 0:
        torch.save(state, os.path.join(folder, f"step-{step}.pt"))
