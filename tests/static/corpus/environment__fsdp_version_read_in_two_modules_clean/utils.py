import os

import torch


def clip_gradients(model, max_norm: float):
    """FSDP1's wrapper clips its flat parameters itself; a `fully_shard` model's DTensor
    gradients go through torch's clip. The version is the one `wrap_model` read: the same
    variable of the environment (another call, another default), one value on a run."""
    if os.getenv("FSDP_VERSION") == "2":
        return torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    return model.clip_grad_norm_(max_norm)


def log_metrics(step: int, loss, grad_norm):
    print(f"step {step} loss {loss.item():.4f} grad_norm {grad_norm.item():.3f}")
