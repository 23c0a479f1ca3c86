import torch
import torch.distributed as dist

from pkg.dist.sharding import shard


def main():
    net = shard(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)))
    optimizer = torch.optim.AdamW(net.parameters())
    net(torch.randn(2, 4)).sum().backward()
    optimizer.step()
    if dist.get_rank() == 0:
        torch.save(net.state_dict(), "net.pt")


if __name__ == "__main__":
    main()
