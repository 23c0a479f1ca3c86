import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from ckpt import WeightSaver


def setup_model():
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    return model


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    model = setup_model()
    WeightSaver("weights.pt").save(model)


if __name__ == "__main__":
    main()
