import torch


def create_optimizers(model, lr: float, separate_head: bool):
    """AdamW over the matrices with weight decay, and over the rest without; the head gets an
    optimizer of its own when asked for."""
    matrices = [p for name, p in model.named_parameters() if p.ndim == 2 and not name.startswith("head")]
    others = [p for name, p in model.named_parameters() if p.ndim != 2 and not name.startswith("head")]
    optimizers = []
    optimizers.append(torch.optim.AdamW(matrices, lr=lr, weight_decay=0.1))
    optimizers.append(torch.optim.AdamW(others, lr=lr, weight_decay=0.0))
    if separate_head:
        optimizers.append(torch.optim.AdamW(model.head.parameters(), lr=lr * 0.1))
    return optimizers
