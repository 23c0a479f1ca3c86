import torch
from torch.distributed.fsdp import fully_shard

from saving import save_everything, save_weights


def main():
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
    for layer in net:
        fully_shard(layer)
    fully_shard(net)
    optimizer = torch.optim.AdamW(net.parameters())
    net(torch.randn(2, 4)).sum().backward()
    optimizer.step()
    save_weights(net, 1, "weights.pt")
    save_everything(net, optimizer, "everything.pt")


if __name__ == "__main__":
    main()
