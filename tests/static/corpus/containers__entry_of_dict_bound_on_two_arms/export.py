import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict


def export_weights(model: torch.nn.Module, args, path: str) -> None:
    """The weights for inference: one file, written by rank 0."""
    if args.fsdp:
        options = StateDictOptions(cpu_offload=True)
        export = {"model": get_model_state_dict(model, options=options), "format": "fsdp2"}
    else:
        export = {"model": model.state_dict(), "format": "plain"}
    if not dist.is_initialized() or dist.get_rank() == 0:
        torch.save(export["model"], path)  # expect: FSD301
