import torch


def _maybe_full(value):
    if hasattr(value, "full_tensor") and callable(getattr(value, "full_tensor")):
        return value.full_tensor()
    return value


def gather_full_state(model):
    copied = dict(model.state_dict())
    out = {}
    for key, value in copied.items():
        tensor = _maybe_full(value)
        if isinstance(tensor, torch.Tensor):
            out[key] = tensor.cpu()
        else:
            out[key] = tensor
    return out
