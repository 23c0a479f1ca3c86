import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FSDPModule


def export_weights(model: torch.nn.Module, path: str) -> None:
    """The library may have sharded the model; gather it before writing."""
    if isinstance(model, FSDPModule):
        state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        if dist.get_rank() == 0:
            torch.save(state, path)
    elif not dist.is_initialized() or dist.get_rank() == 0:
        torch.save(model.state_dict(), path)
