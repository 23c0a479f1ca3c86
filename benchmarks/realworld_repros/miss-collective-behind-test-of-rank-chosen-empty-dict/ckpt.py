import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_optimizer_state_dict


def _load_options():
    return StateDictOptions(full_state_dict=True, cpu_offload=True, broadcast_from_rank0=True)


def _set_optimizer_state(model, optimizer, state):
    if "state" not in state or "param_groups" not in state:
        return False
    set_optimizer_state_dict(model, optimizer, state, options=_load_options())
    return True


def load_checkpoint(path, model, optimizer):
    state = torch.load(path, map_location="cpu") if dist.get_rank() == 0 else {}
    return _set_optimizer_state(model, optimizer, state)
