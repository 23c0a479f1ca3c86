import torch
from model import Net


def run_test(rank, world_size, use_distributed):
    model = Net()
    if use_distributed:
        model.configure_fsdp()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.randn(2, 8)).sum().backward()
    optimizer.step()


def run_scaled(rank, world_size, use_distributed=False, lr=1e-3):
    model = Net()
    if use_distributed:
        model.configure_fsdp()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model(torch.randn(2, 8)).sum().backward()
    optimizer.step()
