import functools
import os

import torch
import torch.distributed as dist
from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import (
    CheckpointImpl,
    apply_activation_checkpointing,
    checkpoint_wrapper,
)
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import Block, Transformer


def init_distributed():
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    return init_device_mesh("cuda", (dist.get_world_size(),))


def setup(cfg, mesh, activation_checkpointing: bool = True):
    """Build on the meta device (no memory until sharded), shard, then allocate this rank's
    shards and give them values."""
    with torch.device("meta"):
        model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
    mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.layers:
        fully_shard(block, mesh=mesh, mp_policy=mp_policy)
    fully_shard(model, mesh=mesh, mp_policy=mp_policy)
    model.to_empty(device="cuda")
    if activation_checkpointing:  # wraps the blocks: their parameters keep what to_empty gave them
        wrapper = functools.partial(checkpoint_wrapper, checkpoint_impl=CheckpointImpl.NO_REENTRANT)
        apply_activation_checkpointing(model, checkpoint_wrapper_fn=wrapper, check_fn=lambda m: isinstance(m, Block))
    model.init_weights()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=0.1)
    return model, optimizer
