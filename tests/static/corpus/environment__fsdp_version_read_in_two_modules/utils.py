import os

import torch


def clip_gradients(model, max_norm: float):
    """FSDP1's wrapper clips its flat parameters itself; a `fully_shard` model's DTensor
    gradients go through torch's clip. The version is read from `USE_FSDP2`, which is not the
    variable `wrap_model` reads: a job that sets `FSDP_VERSION=2` alone reaches FSDP1's
    `clip_grad_norm_` on a `fully_shard` model."""
    if os.environ.get("USE_FSDP2", "0") == "1":
        return torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    return model.clip_grad_norm_(max_norm)  # expect: FSD203


def log_metrics(step: int, loss, grad_norm):
    print(f"step {step} loss {loss.item():.4f} grad_norm {grad_norm.item():.3f}")
