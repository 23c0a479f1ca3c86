import torch
from torch.distributed.fsdp import fully_shard

from ckpt import checkpoint


def main():
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
    for layer in net:
        fully_shard(layer)
    fully_shard(net)
    optimizer = torch.optim.AdamW(net.parameters())
    net(torch.randn(2, 4)).sum().backward()
    optimizer.step()
    checkpoint("ckpt", net, optimizer, {"step": 1})


if __name__ == "__main__":
    main()
