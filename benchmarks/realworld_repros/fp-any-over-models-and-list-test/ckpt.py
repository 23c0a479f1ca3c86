import torch
from torch.distributed.checkpoint.state_dict import get_optimizer_state_dict, StateDictOptions
from torch.distributed.fsdp import FSDPModule


def _is_distributed(model):
    if isinstance(model, FSDPModule):
        return True
    return False


def save_checkpoint(path, models, optimizer):
    if not isinstance(models, list):
        models = [models]
    named = {type(m).__name__: m for m in models}
    is_distributed = any(_is_distributed(m) for m in named.values())
    if is_distributed:
        opt_sd = get_optimizer_state_dict(models[0], optimizer, options=StateDictOptions(full_state_dict=True))
    else:
        opt_sd = optimizer.state_dict()
    torch.save({"optimizer": opt_sd}, path)
