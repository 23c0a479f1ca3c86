import torch
from models import Net
from runner import RunnerConfig


def main(options):
    runner = RunnerConfig(options).build(Net())
    runner.step(torch.randn(4, 8))
