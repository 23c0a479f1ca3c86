import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.tensor import DTensor


def export_plain_weights(model, path):
    """Every rank gathers the full state dict; the first rank converts and writes it."""
    full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    if dist.get_rank() == 0:
        plain = {}
        for name, value in full.items():
            if isinstance(value, DTensor):
                value = value.full_tensor()
            plain[name.replace("_orig_mod.", "")] = value
        torch.save(plain, path)
