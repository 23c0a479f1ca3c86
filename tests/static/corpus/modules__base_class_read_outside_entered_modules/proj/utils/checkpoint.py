import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FullyShardedDataParallel


def _unwrap(model):
    if isinstance(model, (torch.nn.DataParallel, torch.nn.parallel.DistributedDataParallel)):
        model = model.module
    if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
        model = model._orig_mod
    return model


def save_checkpoint(directory, model):
    model = _unwrap(model)
    path = f"{directory}/{model.describe()}.pt"
    if isinstance(model, FullyShardedDataParallel):
        state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
        torch.save(state, path)
    else:
        torch.save(model.state_dict(), path)  # expect: FSD301
