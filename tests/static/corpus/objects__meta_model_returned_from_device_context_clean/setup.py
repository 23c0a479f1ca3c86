import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import build_on_meta, init_block_weights


def init_distributed():
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    return init_device_mesh("cuda", (dist.get_world_size(),))


def setup(cfg, mesh):
    """Build on the meta device (no memory until sharded), shard, then allocate this rank's
    shards and give them values."""
    model = build_on_meta(cfg)
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    model.to_empty(device="cuda")
    model.apply(init_block_weights)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=0.1)
    return model, optimizer
