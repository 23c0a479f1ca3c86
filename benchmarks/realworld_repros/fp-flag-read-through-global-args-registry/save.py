from contextlib import nullcontext

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import StateDictType


def full_state(model, is_fsdp2):
    if is_fsdp2:
        return get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
    return model.state_dict()


def save(model, args):
    is_fsdp2 = args.fsdp_version == "fsdp2"
    ctx = nullcontext() if is_fsdp2 else FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT)
    with ctx:
        if dist.get_rank() == 0:
            state = full_state(model, is_fsdp2)
            torch.save(state, "model.pt")
