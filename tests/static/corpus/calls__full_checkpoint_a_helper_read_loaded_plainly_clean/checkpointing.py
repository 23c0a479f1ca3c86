import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
from torch.distributed.tensor import distribute_tensor


def read_checkpoint(path: str) -> dict:
    """The file a single-GPU run saved: `{"model": model.state_dict(), "step": ...}`."""
    return torch.load(path, map_location="cpu", weights_only=True)


def resume(model, path: str, use_dcp_api: bool) -> int:
    checkpoint = read_checkpoint(path)
    if use_dcp_api:
        set_model_state_dict(model, checkpoint["model"], options=StateDictOptions(full_state_dict=True))
    else:
        live = model.state_dict()
        sharded = {k: distribute_tensor(v, live[k].device_mesh, live[k].placements) for k, v in checkpoint["model"].items()}
        model.load_state_dict(sharded)
    return checkpoint["step"]
