import torch
from torch.distributed.checkpoint.state_dict import get_optimizer_state_dict


def save(model, optimizer, is_fsdp, rank):
    if is_fsdp:
        state = get_optimizer_state_dict(model, optimizer)
    else:
        state = optimizer.state_dict()
    if rank == 0:
        torch.save(state, "optimizer.bin")
