import os

import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
from torch.distributed.fsdp import fully_shard

from model import DiT
from wrapper import FlowMatchingWrapper


def build_generator(cfg, mesh):
    """Build the denoiser on the meta device, shard it, allocate this rank's shards, and load the
    pretrained weights when a checkpoint is given."""
    with torch.device("meta"):
        net = DiT(cfg.in_dim, cfg.dim, cfg.depth)
    for block in net.blocks:
        fully_shard(block, mesh=mesh)
    fully_shard(net, mesh=mesh)
    net.to_empty(device="cuda")
    if cfg.checkpoint and os.path.exists(cfg.checkpoint):
        full = torch.load(cfg.checkpoint, map_location="cpu", mmap=True)
        set_model_state_dict(net, full, options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))
    return FlowMatchingWrapper(net)
