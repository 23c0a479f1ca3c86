import torch

from model import Net
from parallel import shard_root_first, shard_root_only


def main():
    model = Net()
    shard_root_first(model)
    model(torch.randn(2, 16)).sum().backward()


def other():
    model = Net()
    shard_root_only(model)
    model(torch.randn(2, 16)).sum().backward()
