import torch
import torch.distributed as dist


def save_weights(model, step: int, path: str):
    """Weights with the step they were taken at, written by the first rank."""
    weights = model.state_dict()
    weights["step"] = torch.tensor(step)
    if dist.get_rank() == 0:
        torch.save(weights, path)  # expect: FSD301


def save_optimizer_moments(model, optimizer, path: str):
    """The optimizer's moments alone, for a resume that rebuilds the parameter groups."""
    state = optimizer.state_dict()
    if dist.get_rank() == 0:
        torch.save(state["state"], path)  # expect: FSD301
