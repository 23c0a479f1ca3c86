import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_state_dict
from torch.distributed.tensor import DTensor


def export_weights(model, path: str):
    """This rank's shards, made whole on the first rank only."""
    state = get_model_state_dict(model, options=StateDictOptions(cpu_offload=True))
    if dist.get_rank() == 0:
        plain = {}
        for name, value in state.items():
            if isinstance(value, DTensor):
                value = value.full_tensor()  # expect: FSD206
            plain[name.replace("_orig_mod.", "")] = value
        torch.save(plain, path)


def export_training_state(model, optimizer, path: str):
    model_state, optim_state = get_state_dict(model, optimizer)
    if dist.get_rank() == 0:
        tensors = {}
        for name in model_state:
            value = model_state[name]
            tensors[name] = value.full_tensor() if isinstance(value, DTensor) else value  # expect: FSD206
        torch.save({"model": tensors, "optim": optim_state}, path)  # expect: FSD301


def save_hf_weights(state, path: str):
    """Every rank hands its state dict in; the first rank writes plain tensors."""
    if dist.get_rank() == 0:
        plain = {name: value.full_tensor() if isinstance(value, DTensor) else value for name, value in state.items()}  # expect: FSD206
        torch.save(plain, path)
