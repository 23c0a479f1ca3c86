import argparse

import torch

from save import save
from shard import wrap
from state import set_args


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList(torch.nn.Linear(4, 4) for _ in range(2))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp-version", choices=["fsdp1", "fsdp2"], default="fsdp1")
    args = parser.parse_args()
    set_args(args)
    model = wrap(Net())
    save(model, args)


if __name__ == "__main__":
    main()
