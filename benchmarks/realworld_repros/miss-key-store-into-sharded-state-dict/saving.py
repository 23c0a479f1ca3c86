import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import get_state_dict
from torch.distributed.tensor import DTensor


def save_weights(net, step, path):
    weights = net.state_dict()
    weights["step"] = torch.tensor(step)
    if dist.get_rank() == 0:
        torch.save(weights, path)


def save_everything(net, optimizer, path):
    weights, optim = get_state_dict(net, optimizer)
    weights = {k: (v.full_tensor() if isinstance(v, DTensor) else v) for k, v in weights.items()}
    optim["state"] = {k: (v.full_tensor() if isinstance(v, DTensor) else v) for k, v in optim["state"].items()}
    if dist.get_rank() == 0:
        torch.save({"weights": weights, "optim": optim}, path)
