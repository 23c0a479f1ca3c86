import argparse

import torch
from torch.distributed.fsdp import fully_shard

from dist_utils import init_distributed
from model import Decoder


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--combined-units", action="store_true")
    parser.add_argument("--lr", type=float, default=3e-4)
    return parser.parse_args()


def main():
    args = parse_args()
    mesh = init_distributed()
    model = Decoder(32000, 1024, 12)
    for layer in model.layers:
        layer.shard(mesh, args.combined_units)
    fully_shard(model, mesh=mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    return model, optimizer


if __name__ == "__main__":
    main()
