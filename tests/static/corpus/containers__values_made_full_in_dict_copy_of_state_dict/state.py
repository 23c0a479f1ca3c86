import torch


def _maybe_full(value):
    """A sharded parameter gathered whole; a buffer (never a DTensor) as it is."""
    if hasattr(value, "full_tensor") and callable(getattr(value, "full_tensor")):
        return value.full_tensor()
    return value


def gather_full_state(model):
    """Every rank gathers; the caller writes the result on rank 0."""
    copied = dict(model.state_dict())
    out = {}
    for key, value in copied.items():
        tensor = _maybe_full(value)
        if isinstance(tensor, torch.Tensor):
            out[key] = tensor.detach().cpu()
        else:
            out[key] = tensor
    return copied  # the copy, not the gathered values
