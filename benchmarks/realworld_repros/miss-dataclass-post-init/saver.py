import torch
from torch.distributed.checkpoint.state_dict import get_optimizer_state_dict


class OptimizerSaver:
    def __init__(self, folder):
        self.folder = folder

    def write(self, model, optimizer, rank):
        state = get_optimizer_state_dict(model, optimizer)
        if rank == 0:
            torch.save(state, f"{self.folder}/optim.bin")
