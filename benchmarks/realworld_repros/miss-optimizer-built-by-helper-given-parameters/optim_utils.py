import torch


def build_optimizer(params, lr=1e-4):
    """The trainer hands over what to train (all parameters, or a LoRA subset)."""
    return torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
