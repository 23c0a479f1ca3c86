import torch
import torch.distributed as dist

from weights import gather_full_state


class WeightSaver:
    def __init__(self, path):
        self.path = path

    def save(self, model):
        if dist.get_rank() == 0:
            state = gather_full_state(model)
            torch.save(state, self.path)
