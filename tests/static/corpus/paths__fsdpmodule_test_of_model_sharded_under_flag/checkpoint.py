import os

import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.nn.parallel import DistributedDataParallel as DDP


def save_training_state(model, optimizer, checkpoint_dir, step):
    """Every rank calls it: a wrapped model's full state dict is gathered on rank 0."""
    if isinstance(model, DDP):
        state_dict = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    else:
        # a compiled model's keys without the `_orig_mod.` prefix
        state_dict = getattr(model, "_orig_mod", model).state_dict()
    os.makedirs(checkpoint_dir, exist_ok=True)
    torch.save(state_dict, os.path.join(checkpoint_dir, f"model_{step}.pt"))  # expect: FSD301
