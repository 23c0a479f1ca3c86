import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from ckpt import save


def main():
    model = torch.nn.Linear(4, 4)
    fully_shard(model)
    if dist.get_rank() == 0:
        save(model, 0)


if __name__ == "__main__":
    main()
