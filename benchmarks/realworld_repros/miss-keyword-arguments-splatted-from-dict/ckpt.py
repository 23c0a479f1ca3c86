import torch
import torch.distributed as dist


class Checkpointer:
    def __init__(self, path):
        self.path = path

    def save_checkpoint(self, step, model, optimizer):
        if dist.get_rank() == 0:
            torch.save({"step": step, "model": model.state_dict()}, self.path)
