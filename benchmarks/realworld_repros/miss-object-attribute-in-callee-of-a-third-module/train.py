import torch

from common import run_training_loop
from strategy import FSDPStrategy


def train_loop_per_worker() -> None:
    strategy = FSDPStrategy()
    strategy.setup()
    run_training_loop(strategy, [torch.ones(2, 8)])


if __name__ == "__main__":
    train_loop_per_worker()
