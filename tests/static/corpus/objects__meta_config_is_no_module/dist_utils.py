import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh


def init_world_mesh():
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    if not dist.is_initialized():
        dist.init_process_group("nccl")
    return init_device_mesh("cuda", (dist.get_world_size(),))
