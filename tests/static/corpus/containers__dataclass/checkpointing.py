import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict

from state import TrainState


def save(state: TrainState, folder: str):
    model_state, optim_state = get_state_dict(state.model, state.optimizer)
    dcp.save({"model": model_state, "optimizer": optim_state}, checkpoint_id=os.path.join(folder, "dcp"))
    extra = {"step": state.step, "consolidated": state.model.state_dict()}
    if dist.get_rank() == 0:
        torch.save(extra, os.path.join(folder, "extra.pt"))  # expect: FSD301
