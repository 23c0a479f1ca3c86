import torch
import torch.distributed as dist


class Trainer:
    def __init__(self, system, optimizers):
        self.system = system
        self.optimizers = optimizers

    def save(self, path):
        if dist.get_rank() == 0:
            torch.save(self.system.state_dict(), path)
