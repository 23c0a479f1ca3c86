import torch
from torch.distributed.fsdp import fully_shard

from tied import Parent, make_tied_pair


def main():
    enc, dec = make_tied_pair(8)
    model = Parent(enc, dec)
    fully_shard(model.encoder)
    fully_shard(model.decoder)
    fully_shard(model)
    model(torch.randn(2, 8)).sum().backward()


if __name__ == "__main__":
    main()
