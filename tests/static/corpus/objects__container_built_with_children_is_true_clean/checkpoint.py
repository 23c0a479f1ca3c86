import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict
from torch.distributed.fsdp import FSDPModule

from naming import unique_names


def save_checkpoint(path, models=None, optimizer=None, epoch=0):
    named = {}
    if models:
        if not isinstance(models, list):
            models = [models]
        named = unique_names(models)
    distributed = any(isinstance(model, FSDPModule) for model in named.values())
    state = {"epoch": epoch}
    if optimizer:
        if distributed:
            options = StateDictOptions(full_state_dict=True, cpu_offload=True)
            state["optimizer"] = get_optimizer_state_dict(next(iter(named.values())), optimizer, options=options)
        else:
            state["optimizer"] = optimizer.state_dict()
    if not distributed or torch.distributed.get_rank() == 0:
        torch.save(state, f"{path}/checkpoint_{epoch}.pt")
