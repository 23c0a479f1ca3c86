import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict


def save_weights(model, step: int, path: str):
    """Weights with the step they were taken at, gathered whole, written by the first rank."""
    weights = model.state_dict()
    for name in list(weights):
        weights[name] = weights[name].full_tensor()
    weights["step"] = torch.tensor(step)
    if dist.get_rank() == 0:
        torch.save(weights, path)


def save_optimizer_moments(model, optimizer, path: str):
    """The optimizer's moments alone, for a resume that rebuilds the parameter groups."""
    state = get_optimizer_state_dict(model, optimizer, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    if dist.get_rank() == 0:
        torch.save(state["state"], path)
