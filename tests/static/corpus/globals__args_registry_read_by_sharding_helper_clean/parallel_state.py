"""The run's parsed arguments, set once by initialize() and read where they are needed, and the
data-parallel wrapping they choose (Megatron-style global state)."""

from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import fully_shard

_GLOBAL_ARGS = None


def set_args(args):
    global _GLOBAL_ARGS
    _GLOBAL_ARGS = args


def get_args():
    return _GLOBAL_ARGS


def fsdp2_enabled():
    args = get_args()
    return args.parallel.fsdp_version == "fsdp2"


def wrap_model(model):
    if fsdp2_enabled():
        for block in model.blocks:
            fully_shard(block)
        return fully_shard(model)
    return FSDP(model, use_orig_params=get_args().parallel.use_orig_params)
