import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh


def init_distributed(fsdp_degree: int):
    """The device mesh for FSDP2; None on a single node, where DDP replicates the model."""
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    if fsdp_degree <= 1:
        return None
    return init_device_mesh("cuda", (dist.get_world_size() // fsdp_degree, fsdp_degree), mesh_dim_names=("dp", "fs"))
