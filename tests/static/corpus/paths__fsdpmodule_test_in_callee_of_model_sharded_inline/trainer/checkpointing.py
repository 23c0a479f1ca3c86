import os

import torch
import torch.distributed.checkpoint as dcp
from torch.nn.parallel import DistributedDataParallel as DDP


def load_resume_state(model, resume_dir: str):
    """A wrapped model resumes from its DCP checkpoint; a single-process one from the plain file."""
    if isinstance(model, DDP):
        dcp.load({"model": model.state_dict()}, checkpoint_id=resume_dir)
        return
    state = torch.load(os.path.join(resume_dir, "model.pt"), map_location="cpu", weights_only=True)
    model.load_state_dict(state)  # expect: FSD302
