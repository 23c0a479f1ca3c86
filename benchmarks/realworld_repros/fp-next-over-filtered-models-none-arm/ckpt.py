import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict, set_model_state_dict
from torch.distributed.fsdp import FSDPModule
from torch.nn.parallel import DistributedDataParallel


def _is_distributed_model(model):
    if isinstance(model, FSDPModule):
        return True
    return False


def _named_models(models):
    named = {}
    for model in models:
        if isinstance(model, DistributedDataParallel):
            model = model.module
        if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
            model = model._orig_mod
        named[type(model).__name__] = model
    return named


def save_checkpoint(path, models, optimizer):
    if not isinstance(models, list):
        models = [models]
    named = _named_models(models)
    is_distributed = any(_is_distributed_model(m) for m in named.values())
    if is_distributed:
        opt_model = next((m for m in named.values() if _is_distributed_model(m)), None)
        if opt_model is not None:
            state = get_optimizer_state_dict(opt_model, optimizer, options=StateDictOptions(full_state_dict=True))
        else:
            state = optimizer.state_dict()
    else:
        state = optimizer.state_dict()
    torch.save(state, path)


def load_checkpoint(path, models):
    if not isinstance(models, list):
        models = [models]
    named = _named_models(models)
    is_distributed = any(_is_distributed_model(m) for m in named.values())
    if is_distributed:
        for model in named.values():
            set_model_state_dict(model, torch.load(path), options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))
        return
    for model in named.values():
        model.load_state_dict(torch.load(path))
