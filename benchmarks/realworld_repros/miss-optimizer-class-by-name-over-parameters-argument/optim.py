import torch


def get_optimizer_class(name):
    if hasattr(torch.optim, name):
        return getattr(torch.optim, name)
    raise ValueError(f"unknown optimizer {name}")


def build_optimizer(params, name, lr):
    optimizer_class = get_optimizer_class(name)
    return optimizer_class(params, lr=lr)
