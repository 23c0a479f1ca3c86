import argparse

import torch

from setup import store, wrap


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sharded", type=int, default=0)
    parser.add_argument("--preset", default=None)
    opts = parser.parse_args()
    if opts.preset:
        opts = parser.parse_args(open(opts.preset).read().split())
    net = wrap(opts, torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    net(torch.randn(2, 4)).sum().backward()
    optimizer.step()
    store(opts, net, "ckpt")


if __name__ == "__main__":
    main()
