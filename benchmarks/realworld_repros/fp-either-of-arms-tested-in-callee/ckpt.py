import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FSDPModule


def _unwrap(model):
    if isinstance(model, torch.nn.parallel.DistributedDataParallel):
        model = model.module
    return model


def save_checkpoint(path, model):
    pass
    if isinstance(model, FSDPModule):
        state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
        torch.save(state, path)
    else:
        torch.save(model.state_dict(), path)
