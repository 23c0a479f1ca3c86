import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FSDPModule
from torch.nn.parallel import DistributedDataParallel


def is_wrapped(model):
    return isinstance(model, (DistributedDataParallel, FSDPModule))


def is_sharded(model):
    return isinstance(model, FSDPModule)


def full_state_dict(model):
    if is_sharded(model):
        return get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
    return model.module.state_dict() if is_wrapped(model) else model.state_dict()


def save_ckpt(model, path):
    state_dict = full_state_dict(model)
    if dist.get_rank() == 0:
        torch.save(state_dict, path)
