import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from search import find_batch_size


def setup_model(fsdp):
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
    if fsdp:
        for layer in model:
            fully_shard(layer)
        fully_shard(model)
    return model


def worker(rank, world_size, fsdp, auto_batch_size):
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    model = setup_model(fsdp)
    if auto_batch_size and rank == 0:
        find_batch_size(model, 1024)
    if rank == 0:
        model(torch.zeros(2, 8, device="cuda"))
