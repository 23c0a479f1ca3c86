import argparse

import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp
from registry import OPTIMIZERS


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--optimizer", default="adamw")
    parser.add_argument("--lr", type=float, default=3e-4)
    args = parser.parse_args()
    mesh = init_distributed()
    model = Transformer(32000, 2048, 24)
    make_optimizer = OPTIMIZERS[args.optimizer]
    optimizer = make_optimizer(model.parameters(), lr=args.lr)  # expect: FSD202
    apply_fsdp(model, mesh)
    for step in range(1000):
        tokens = torch.randint(0, 32000, (8, 1024), device="cuda")
        model(tokens).float().mean().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
