import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, set_model_state_dict
from torch.distributed.fsdp import FSDPModule, FullyShardedDataParallel
from torch.distributed.tensor import DTensor
from torch.nn.parallel import DistributedDataParallel


def _unwrap(model):
    """DDP's wrapper is stripped; a sharded model is saved through DCP's helpers."""
    if isinstance(model, DistributedDataParallel):
        return model.module
    return model


def _is_distributed(model):
    """FSDP1's wrapper or FSDP2's module; else a model whose parameters are DTensors."""
    if isinstance(model, (FullyShardedDataParallel, FSDPModule)):
        return True
    return any(isinstance(p, DTensor) for p in model.parameters())


def save_model(path, model):
    model = _unwrap(model)
    if _is_distributed(model):
        state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
        torch.save(state, path)
    else:
        torch.save(model.state_dict(), path)


def _load_full(path, model):
    """Rank 0 reads the file; DCP's helper broadcasts it into the shards."""
    state = torch.load(path, map_location="cpu") if torch.distributed.get_rank() == 0 else {}
    set_model_state_dict(model, state, options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))


def load_model(path, model):
    model = _unwrap(model)
    if isinstance(model, FSDPModule):
        _load_full(path, model)
    else:
        model.load_state_dict(torch.load(path, map_location="cpu"))
