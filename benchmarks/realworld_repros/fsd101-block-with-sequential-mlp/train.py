import torch
from torch.distributed.fsdp import fully_shard

from blocks import TinyModel


def setup():
    model = TinyModel()
    fully_shard(model.block)
    fully_shard(model)
    return model


def main():
    model = setup()
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.randint(0, 16, (2, 8))).sum().backward()
    optimizer.step()


if __name__ == "__main__":
    main()
