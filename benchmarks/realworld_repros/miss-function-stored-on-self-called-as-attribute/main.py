import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from computer import Computer


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
    Computer(model, [torch.zeros(2, 8, device="cuda")]).run()
