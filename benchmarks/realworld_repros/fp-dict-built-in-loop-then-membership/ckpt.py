import torch
from torch.distributed.checkpoint.state_dict import get_model_state_dict, get_optimizer_state_dict, StateDictOptions
from torch.distributed.fsdp import FSDPModule
from torch.distributed.tensor import DTensor
from mod import Base


def _is_distributed(model):
    if isinstance(model, FSDPModule):
        return True
    return any(isinstance(p, DTensor) for p in model.parameters())


def _unwrap(model):
    if isinstance(model, (torch.nn.DataParallel, torch.nn.parallel.DistributedDataParallel)):
        model = model.module
    if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
        model = model._orig_mod
    return model


def _class_name(model):
    if isinstance(model, FSDPModule):
        for cls in type(model).__mro__:
            if issubclass(cls, FSDPModule):
                continue
            return cls.__name__
    return type(model).__name__


def _named(models):
    by_class = {}
    for m in models:
        m = _unwrap(m)
        name = _class_name(m)
        if name in by_class:
            by_class[name].append(m)
        else:
            by_class[name] = [m]
    named = {}
    for key, group in by_class.items():
        if len(group) > 1:
            for i, m in enumerate(group):
                named[key + str(i)] = m
        else:
            named[key] = group[0]
    return named


def _full(sd):
    out = {}
    for k, v in sd.items():
        out[k] = v.full_tensor() if isinstance(v, DTensor) else v
    return out


def save_checkpoint(path, models=None, optimizer=None, optimizer_model=None):
    named = {}
    is_distributed = False
    if models:
        if not isinstance(models, list):
            models = [models]
        named = _named(models)
        is_distributed = any(_is_distributed(m) for m in named.values())
    for name, model in named.items():
        if _is_distributed(model):
            sd = _full(get_model_state_dict(model, options=StateDictOptions(full_state_dict=True)))
            if isinstance(model, Base):
                model.save(path, _state_dict=sd)
            else:
                torch.save(sd, path)
        else:
            if isinstance(model, Base):
                model.save(path)
            else:
                torch.save(model.state_dict(), path)
    if optimizer:
        if is_distributed:
            opt_model = optimizer_model or next((m for m in named.values() if _is_distributed(m)), None)
            if opt_model is not None:
                opt_sd = _full(get_optimizer_state_dict(opt_model, optimizer, options=StateDictOptions(full_state_dict=True)))
            else:
                opt_sd = optimizer.state_dict()
        else:
            opt_sd = optimizer.state_dict()
        torch.save({"optimizer": opt_sd}, path + ".opt")


def load_checkpoint(path, models=None):
    named = {}
    is_distributed = False
    if models:
        if not isinstance(models, list):
            models = [models]
        named = _named(models)
        is_distributed = any(_is_distributed(m) for m in named.values())
    if is_distributed:
        return 1
    for name, model in named.items():
        if isinstance(model, Base):
            model.load(path)
        else:
            model.load_state_dict(torch.load(path))
    return 0
