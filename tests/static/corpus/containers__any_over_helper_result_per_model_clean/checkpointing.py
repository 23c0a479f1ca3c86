import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_optimizer_state_dict

from parallel import is_sharded, unwrap_ddp


def _named_models(models):
    named = {}
    for model in models:
        model = unwrap_ddp(model)
        named[type(model).__name__] = model
    return named


def save_checkpoint(path, models, optimizer):
    """Rank 0 writes full state dicts: gathered on every rank when a model is sharded."""
    if not isinstance(models, list):
        models = [models]
    named = _named_models(models)
    sharded = any(is_sharded(model) for model in named.values())
    options = StateDictOptions(full_state_dict=True, cpu_offload=True)
    if sharded:
        states = {name: get_model_state_dict(model, options=options) for name, model in named.items()}
        optimizer_state = get_optimizer_state_dict(models[0], optimizer, options=options)
    else:
        states = {name: model.state_dict() for name, model in named.items()}
        optimizer_state = optimizer.state_dict()
    if torch.distributed.get_rank() == 0:
        torch.save({"models": states, "optimizer": optimizer_state}, path)
