import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


def init_distributed_device(args) -> torch.device:
    """torchrun sets RANK and LOCAL_RANK; a plain `python train.py` trains on one device."""
    args.distributed = "RANK" in os.environ and "LOCAL_RANK" in os.environ
    if not args.distributed:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    return torch.device("cuda", local_rank)


def shard_model(model: torch.nn.Module) -> None:
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for block in model.blocks:
        fully_shard(block, mp_policy=policy)
    fully_shard(model, mp_policy=policy)
