import torch
import torch.distributed as dist
from torch.distributed.fsdp import FSDPModule


def export_weights(model: torch.nn.Module, path: str) -> None:
    """The model comes from a library that may have sharded it with fully_shard."""
    if isinstance(model, FSDPModule):
        model.unshard()
        try:
            if dist.get_rank() == 0:
                torch.save(model.state_dict(), path)
        finally:
            model.reshard()
    elif dist.get_rank() == 0:
        torch.save(model.state_dict(), path)
