import torch


@torch.no_grad()
def generate_example(model, prompt):
    model.eval()
    out = model(prompt)
    model.train()
    return out
