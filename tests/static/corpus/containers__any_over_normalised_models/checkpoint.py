import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_optimizer_state_dict

from dist_utils import is_distributed_model


def save_checkpoint(path, models, optimizer):
    if not isinstance(models, list):
        models = [models]
    named = {type(model).__name__: model for model in models}
    distributed = any(is_distributed_model(model) for model in named.values())
    options = StateDictOptions(full_state_dict=True, cpu_offload=True)
    if distributed:
        model_states = {name: get_model_state_dict(model, options=options) for name, model in named.items()}
        optimizer_state = get_optimizer_state_dict(models[0], optimizer, options=options)
    else:
        model_states = {name: model.state_dict() for name, model in named.items()}
        optimizer_state = optimizer.state_dict()
    torch.save({"models": model_states, "optimizer": optimizer_state}, path)  # expect: FSD301
