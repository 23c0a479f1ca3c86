import os
from contextlib import nullcontext

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import FullStateDictConfig, StateDictType


def save_checkpoint(save_dir, model, iteration, args):
    is_fsdp2 = args.parallel.fsdp_version == "fsdp2"
    # FSDP1 gathers the full state dict inside its context; FSDP2 through get_model_state_dict
    ctx = nullcontext() if is_fsdp2 else FSDP.state_dict_type(
        model, StateDictType.FULL_STATE_DICT, FullStateDictConfig(rank0_only=True, offload_to_cpu=True),
    )
    with ctx:
        if is_fsdp2:
            state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        else:
            state = model.state_dict()
    if dist.get_rank() == 0:
        torch.save(state, os.path.join(save_dir, f"iter_{iteration}.pt"))
