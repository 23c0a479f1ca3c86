import torch

from model import Net
from parallel import apply_fsdp


def main():
    model = Net()
    apply_fsdp(model, model.layers)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model(torch.randn(2, 16)).sum().backward()
    optimizer.step()
