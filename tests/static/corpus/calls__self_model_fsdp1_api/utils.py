import torch


def clip_gradients(model, max_norm: float):
    return model.clip_grad_norm_(max_norm)  # expect: FSD203


def log_metrics(step: int, loss, grad_norm):
    print(f"step {step} loss {loss.item():.4f} grad_norm {grad_norm.item():.3f}")
