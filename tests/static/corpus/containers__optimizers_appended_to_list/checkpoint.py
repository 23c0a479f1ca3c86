from pathlib import Path

import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_model_state_dict


def save_checkpoint(model, optimizers, step: int, directory: str):
    """The model through DCP, the optimizers in one file next to it."""
    path = Path(directory) / f"step_{step}"
    dcp.save({"model": get_model_state_dict(model)}, checkpoint_id=str(path / "model"))
    torch.save({f"optimizer_{i}": o.state_dict() for i, o in enumerate(optimizers)}, path / "all_optimizers.pt")  # expect: FSD301
