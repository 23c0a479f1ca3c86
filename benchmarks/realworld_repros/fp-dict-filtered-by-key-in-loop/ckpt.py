import os

import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict

WEIGHTS = "weights"
OPTIM = "optim"


def checkpoint(folder, net, optimizer, extras):
    weights, optim = get_state_dict(net, optimizer)
    everything = {WEIGHTS: weights, OPTIM: optim, **extras}
    dcp.save({WEIGHTS: everything[WEIGHTS], OPTIM: everything[OPTIM]}, checkpoint_id=folder)
    small = {}
    for name, item in everything.items():
        if name not in [WEIGHTS, OPTIM]:
            small[name] = item
    torch.save(small, os.path.join(folder, "small.pt"))
