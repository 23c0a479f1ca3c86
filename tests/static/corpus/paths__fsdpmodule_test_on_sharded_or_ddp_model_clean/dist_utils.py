import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh


def init_distributed():
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    return init_device_mesh("cuda", (dist.get_world_size(),))
