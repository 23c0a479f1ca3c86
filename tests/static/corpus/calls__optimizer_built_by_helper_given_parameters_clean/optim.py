import torch


def build_optimizer(params, lr=1e-4, weight_decay=0.01):
    """The trainer hands over what to train: every parameter, or a LoRA subset."""
    return torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay)
