import torch
from torch import nn
from torch.distributed.fsdp import fully_shard


def _off_dtype_params(model):
    """Parameters FSDP2 cannot group with the rest: kept out of the units, replicated."""
    return {p for p in model.parameters() if p.dtype != torch.bfloat16}


def _move_to_device(params, device):
    for param in params:
        if param.device != device:
            param.data = param.data.to(device)


def wrap(model: nn.Module, device):
    ignored = _off_dtype_params(model)
    for layer in model.layers:
        fully_shard(layer, ignored_params=ignored)
    fully_shard(model, ignored_params=ignored)
    _move_to_device(ignored, device)
    return model
