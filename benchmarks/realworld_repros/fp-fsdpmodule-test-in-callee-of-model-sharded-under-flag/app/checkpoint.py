import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.fsdp import FSDPModule


def load_weights(model, path):
    """Resume: DCP for a sharded model, a plain state dict otherwise."""
    if isinstance(model, FSDPModule):
        dcp.load({"model": model.state_dict()}, checkpoint_id=path)
        return
    model.load_state_dict(torch.load(path + "/model_state.pt", map_location="cpu"))
