import os

import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict


class Checkpointing:
    MODEL_KEY = "model"
    OPTIMIZER_KEY = "optimizer"

    @staticmethod
    def save(path, model, optimizer, extra):
        model_sd, optim_sd = get_state_dict(model, optimizer)
        state = {Checkpointing.MODEL_KEY: model_sd, Checkpointing.OPTIMIZER_KEY: optim_sd, **extra}
        dcp.save({Checkpointing.MODEL_KEY: model_sd, Checkpointing.OPTIMIZER_KEY: optim_sd}, checkpoint_id=path)
        rest = {}
        for k, v in state.items():
            if k not in [Checkpointing.MODEL_KEY, Checkpointing.OPTIMIZER_KEY]:
                rest[k] = v
        torch.save(rest, os.path.join(path, "other.pt"))
