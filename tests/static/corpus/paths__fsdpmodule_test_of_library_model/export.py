import torch
import torch.distributed as dist
from torch.distributed.fsdp import FSDPModule


def export_weights(model: torch.nn.Module, path: str) -> None:
    """The library may have sharded the model; gather it before writing."""
    if isinstance(model, FSDPModule):
        model.unshard()
        try:
            if dist.get_rank() == 0:
                torch.save(model.state_dict(), path)  # expect: FSD301
        finally:
            model.reshard()
    elif not dist.is_initialized() or dist.get_rank() == 0:
        torch.save(model.state_dict(), path)
