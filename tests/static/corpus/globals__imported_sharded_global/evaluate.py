import torch
import torch.nn.functional as F

from runtime import MODEL


@torch.no_grad()
def evaluate(loader):
    MODEL.eval()
    total, count = 0.0, 0
    for tokens in loader:
        logits = MODEL.forward(tokens[:, :-1])  # expect: FSD201
        total += F.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten()).item()
        count += 1
    MODEL.train()
    return total / max(count, 1)
