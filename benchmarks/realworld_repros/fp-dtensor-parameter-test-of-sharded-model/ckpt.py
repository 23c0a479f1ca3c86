import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict
from torch.distributed.tensor import DTensor


def is_fsdp2(model):
    return any(isinstance(p, DTensor) for p in model.parameters())


def save_checkpoint(model, optimizer, path):
    if is_fsdp2(model):
        mstate, ostate = get_state_dict(model, optimizer)
        dcp.save({"model": mstate, "optim": ostate}, checkpoint_id=path)
    elif dist.get_rank() == 0:
        torch.save(model.state_dict(), f"{path}/model.pt")
