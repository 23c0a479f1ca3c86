import torch
from torch.distributed.fsdp import FSDPModule


def _unwrap(model):
    if isinstance(model, (torch.nn.DataParallel, torch.nn.parallel.DistributedDataParallel)):
        model = model.module
    if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
        model = model._orig_mod
    return model


def _is_distributed(model):
    if isinstance(model, FSDPModule):
        return True
    return False


def save_checkpoint(path, model):
    model = _unwrap(model)
    if _is_distributed(model):
        pass
    else:
        torch.save(model.state_dict(), path)
