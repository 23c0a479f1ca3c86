from pathlib import Path

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_optimizer_state_dict


def save_checkpoint(model, optimizers, step: int, directory: str):
    """The model through DCP, the optimizers gathered whole and written in one file by rank 0."""
    path = Path(directory) / f"step_{step}"
    dcp.save({"model": get_model_state_dict(model)}, checkpoint_id=str(path / "model"))
    options = StateDictOptions(full_state_dict=True, cpu_offload=True)
    state = {f"optimizer_{i}": get_optimizer_state_dict(model, o, options=options) for i, o in enumerate(optimizers)}
    if dist.get_rank() == 0:
        torch.save(state, path / "all_optimizers.pt")
