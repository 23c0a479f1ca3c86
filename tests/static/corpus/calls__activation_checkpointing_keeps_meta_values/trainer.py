import torch
import torch.nn.functional as F


def train(model, optimizer, loader, max_steps: int, log_every: int = 50):
    model.train()
    for step, (tokens, labels) in enumerate(loader):
        if step == max_steps:
            break
        logits = model(tokens)  # expect: FSD105
        loss = F.cross_entropy(logits.flatten(0, 1).float(), labels.flatten())
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if step % log_every == 0:
            print(f"step {step}: loss {loss.item():.4f}")
