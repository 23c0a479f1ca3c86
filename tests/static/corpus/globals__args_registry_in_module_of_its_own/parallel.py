from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import fully_shard

from global_vars import fsdp2_enabled, get_args


def wrap_model(model):
    if fsdp2_enabled():
        for block in model.blocks:
            fully_shard(block)
        return fully_shard(model)
    return FSDP(model, use_orig_params=get_args().parallel.use_orig_params)
