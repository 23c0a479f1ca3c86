import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FSDPModule, FullyShardedDataParallel as FSDP


def unwrap(model):
    """The module FSDP1's wrapper holds; a model `fully_shard` sharded (FSDP2) is its own module."""
    if isinstance(model, FSDP):
        return model.module
    return model


def save_weights(model, path, rank):
    inner = unwrap(model)
    if isinstance(model, FSDPModule):
        state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        if rank == 0:
            torch.save(state, path)
    elif rank == 0:
        torch.save(inner.state_dict(), path)
