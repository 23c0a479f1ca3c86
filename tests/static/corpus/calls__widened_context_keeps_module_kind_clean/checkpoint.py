import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict
from torch.distributed.fsdp import FSDPModule


def save_checkpoint(path, models, optimizer):
    sharded = False
    if models:
        if not isinstance(models, list):
            models = [models]
        sharded = any(isinstance(m, FSDPModule) for m in models)
    if sharded:
        options = StateDictOptions(full_state_dict=True, cpu_offload=True)
        state = get_optimizer_state_dict(models[0], optimizer, options=options)
    else:
        state = optimizer.state_dict()
    torch.save(state, path)
