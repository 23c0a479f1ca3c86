import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict
from torch.nn.parallel import DistributedDataParallel


def save_checkpoint(path: str, model: torch.nn.Module, optimizer: torch.optim.Optimizer) -> None:
    """The optimizer's state as one file: gathered from the shards where the model is sharded."""
    if isinstance(model, DistributedDataParallel):  # inverted: DDP holds whole tensors already
        state = get_optimizer_state_dict(model, optimizer, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    else:
        state = optimizer.state_dict()
    if dist.get_rank() == 0:
        torch.save(state, path)  # expect: FSD301
