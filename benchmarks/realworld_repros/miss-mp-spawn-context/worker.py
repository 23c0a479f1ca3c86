import torch
from model import Net


def run_test(rank, world_size, use_distributed):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if use_distributed:
        model.configure_fsdp()
    model(torch.randn(2, 8)).sum().backward()
    optimizer.step()
