import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel as DDP

from config import DistributedConfig


def init_distributed():
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    return init_device_mesh("cuda", (dist.get_world_size(),))


def prepare_model_for_distributed(model, config: DistributedConfig, device_mesh):
    """DDP, or FSDP2 block by block and then the root, as configured; neither on one GPU."""
    if config.use_ddp:
        return DDP(model, device_ids=[device_mesh.get_local_rank()])
    if config.use_fsdp:
        for block in model.blocks:
            fully_shard(block, mesh=device_mesh, reshard_after_forward=config.reshard_after_forward)
        fully_shard(model, mesh=device_mesh, reshard_after_forward=config.reshard_after_forward)
    return model
