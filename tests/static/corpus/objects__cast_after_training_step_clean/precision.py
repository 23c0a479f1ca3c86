import torch


def set_param_dtype(model, dtype=torch.bfloat16):
    """Parameters (and so the optimizer's updates) in low precision: half the memory of fp32 master weights."""
    model.to(dtype)
    return model
