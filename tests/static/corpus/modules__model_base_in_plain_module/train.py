import torch
from torch.distributed.fsdp import fully_shard

from nets.fully_connected import FullyConnected


def setup(mesh=None):
    model = FullyConnected()
    fully_shard(model, mesh=mesh)  # expect: FSD101
    return model


def main():
    model = setup()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(2):
        model(torch.randn(8, 32)).sum().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
