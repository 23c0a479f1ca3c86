import torch

_OPTIMIZERS = {"AdamW": torch.optim.AdamW}


def optimizer_class(name):
    if name not in _OPTIMIZERS:
        raise ValueError(f"unsupported optimizer {name}; supported: {list(_OPTIMIZERS.keys())}")
    return _OPTIMIZERS[name]


def build_optimizer(model, name, lr):
    groups = [{"params": [p for p in model.parameters() if p.requires_grad]}]
    return optimizer_class(name)(groups, lr=lr)
