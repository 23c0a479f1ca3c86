import torch


def build_optimizer(params, lr):
    return torch.optim.AdamW(params, lr=lr)
