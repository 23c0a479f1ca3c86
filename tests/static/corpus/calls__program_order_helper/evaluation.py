import torch
import torch.nn.functional as F


@torch.no_grad()
def report_initial_loss(model, loader, steps: int = 10):
    """The validation loss of the loaded weights, logged before the first update."""
    total = 0.0
    for _, batch in zip(range(steps), loader):
        tokens = batch["input_ids"].cuda()
        logits = model(tokens[:, :-1])
        total += F.cross_entropy(logits.flatten(0, 1).float(), tokens[:, 1:].flatten()).item()
    print(f"initial validation loss {total / steps:.4f}")
