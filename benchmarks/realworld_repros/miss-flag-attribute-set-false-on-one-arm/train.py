import argparse

import torch
from torch.distributed.fsdp import fully_shard


def main(args: argparse.Namespace) -> None:
    model = torch.nn.Linear(4, 4)
    if not args.distributed:
        args.fsdp = False
    if args.fsdp:
        fully_shard(model)
        model.forward(torch.randn(2, 4))  # want: FSD201


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp", action="store_true")
    parser.add_argument("--distributed", action="store_true")
    main(parser.parse_args())
