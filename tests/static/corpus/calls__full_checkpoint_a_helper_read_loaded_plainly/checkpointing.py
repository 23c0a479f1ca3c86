import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict


def read_checkpoint(path: str) -> dict:
    """The file a single-GPU run saved: `{"model": model.state_dict(), "step": ...}`."""
    return torch.load(path, map_location="cpu", weights_only=True)


def resume(model, path: str, use_dcp_api: bool) -> int:
    checkpoint = read_checkpoint(path)
    if use_dcp_api:
        set_model_state_dict(model, checkpoint["model"], options=StateDictOptions(full_state_dict=True))
    else:
        model.load_state_dict(checkpoint["model"])  # expect: FSD302
    return checkpoint["step"]
