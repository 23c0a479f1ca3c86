import torch
import torch.nn.functional as F
from torch.distributed.tensor import DTensor


@torch.no_grad()
def evaluate(model, loader, max_batches: int) -> float:
    """Mean loss over the first `max_batches` non-empty batches of `loader`."""
    model.eval()
    total, count = 0.0, 0
    for index, (tokens, labels) in enumerate(loader):
        if index >= max_batches:
            break
        if tokens.numel() == 0:
            continue
        logits = model(tokens)
        total += F.cross_entropy(logits.flatten(0, 1), labels.flatten()).item()
        count += 1
    model.train()
    return total / max(count, 1)


def to_cpu(state):
    """A state dict's tensors on the CPU, DTensors gathered whole first."""
    out = {}
    for name, value in state.items():
        if isinstance(value, DTensor):
            value = value.full_tensor()
        out[name] = value.cpu()
    return out
