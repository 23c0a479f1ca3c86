import torch
from torch.distributed.fsdp import fully_shard

from sync import accumulation_context


def main():
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
    for layer in net:
        fully_shard(layer)
    fully_shard(net)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for step in range(4):
        last = step % 2 == 1
        loss = net(torch.randn(2, 4)).sum()
        with accumulation_context(net, reduce_now=last):
            loss.backward()
        if last:
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
