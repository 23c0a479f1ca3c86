import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FSDPModule


def save_training_state(model, step: int, path: str):
    """A single-file checkpoint: gathered whole where the model is sharded."""
    if isinstance(model, FSDPModule):
        state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    else:
        state = model.state_dict()
    torch.save({"model": state, "step": step}, path)
