import os
import shutil
from typing import Any

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict


class DistributedCheckpointUtils:
    """DCP writes the model's and the optimizer's state dicts; everything else goes to a file of its own."""

    MODEL_KEY = "model"
    OPTIMIZER_KEY = "optimizer"
    OTHER_PATH = "other.pth"

    @staticmethod
    def create_state_dict(model, optimizer, extra: Any) -> dict:
        model_sd, optim_sd = get_state_dict(model, optimizer)
        return {
            DistributedCheckpointUtils.MODEL_KEY: model_sd,
            DistributedCheckpointUtils.OPTIMIZER_KEY: optim_sd,
            **extra,
        }

    @staticmethod
    def save(checkpoint_path: str, model, optimizer, extra: Any, remove_if_exists: bool = True):
        dist.barrier()
        state_dict = DistributedCheckpointUtils.create_state_dict(model, optimizer, extra)
        if remove_if_exists and os.path.exists(checkpoint_path) and dist.get_rank() == 0:
            shutil.rmtree(checkpoint_path)
        dcp_state_dict = {
            DistributedCheckpointUtils.MODEL_KEY: state_dict[DistributedCheckpointUtils.MODEL_KEY],
            DistributedCheckpointUtils.OPTIMIZER_KEY: state_dict[DistributedCheckpointUtils.OPTIMIZER_KEY],
        }
        dcp.save(dcp_state_dict, checkpoint_id=checkpoint_path)
        # DCP saves nothing but the model and the optimizer: the rest by hand
        not_saved_by_dcp = {}
        for k, v in state_dict.items():
            if k not in [
                DistributedCheckpointUtils.MODEL_KEY,
                DistributedCheckpointUtils.OPTIMIZER_KEY,
            ]:
                not_saved_by_dcp[k] = v
        torch.save(not_saved_by_dcp, os.path.join(checkpoint_path, DistributedCheckpointUtils.OTHER_PATH))
        dist.barrier()
