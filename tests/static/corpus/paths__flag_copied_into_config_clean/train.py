import argparse

import torch

from dist_utils import init_distributed
from model import Transformer
from strategy import Strategy


def build_optimizer(model, lr):
    return torch.optim.AdamW(model.parameters(), lr=lr, fused=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp", action="store_true")
    parser.add_argument("--zero2", action="store_true")
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()
    strategy = Strategy(args)

    model = Transformer(32000, 1024, 8).cuda()
    if not args.fsdp:
        optimizer = build_optimizer(model, args.lr)  # a replicated model keeps its parameters
    model = strategy.prepare_model(model, init_distributed())
    if args.fsdp:
        optimizer = build_optimizer(model, args.lr)
    for step in range(100):
        loss = model(torch.randint(0, 32000, (8, 512), device="cuda")).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
