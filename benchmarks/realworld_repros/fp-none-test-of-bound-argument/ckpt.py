import torch
from torch.distributed.checkpoint.state_dict import get_model_state_dict, StateDictOptions
from torch.distributed.fsdp import FSDPModule


def _offload(sd):
    out = {}
    for k, v in sd.items():
        out[k] = v.cpu()
    return out


def save_checkpoint(path, model):
    if isinstance(model, FSDPModule):
        sd = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
        sd = _offload(sd)
        model.save(path, _state_dict=sd)
    else:
        model.save(path)
