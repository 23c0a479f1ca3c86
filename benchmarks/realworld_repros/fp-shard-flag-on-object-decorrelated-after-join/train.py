import argparse

import torch
import torch.distributed as dist
import torch.nn as nn

from task import TrainingTask


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return x


def main(args: argparse.Namespace) -> None:
    task = TrainingTask(Net())
    if args.fsdp:
        task.prepare_fsdp()
    checkpoint = {"epoch": 1, "state_dict": task.state_dict()}
    if dist.get_rank() == 0:
        torch.save(checkpoint, "epoch_1.pt")  # full state dict when sharded: nothing to report


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp", action="store_true")
    main(parser.parse_args())
