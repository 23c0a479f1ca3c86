import os

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict


def export_for_inference(model, folder: str, offload: bool = True):
    """A single-file copy of the weights for the inference team."""
    opts = StateDictOptions(full_state_dict=False, cpu_offload=offload)
    state = get_model_state_dict(model, options=opts)
    if dist.get_rank() == 0:
        torch.save(state, os.path.join(folder, "consolidated.pt"))  # expect: FSD301
