import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from checkpoint import CheckpointManager


def main(folder):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    with torch.device("meta"):
        model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    model.to_empty(device="cuda")
    CheckpointManager(model, folder).load()
    with torch.no_grad():
        model(torch.zeros(2, 8, device="cuda"))
