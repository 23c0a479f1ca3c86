import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from model import CausalLM
from parallel import apply_fsdp


class Trainer:
    """The optimizer is built when training starts, not in the constructor."""

    def __init__(self, lr: float = 3e-4):
        dist.init_process_group("nccl")
        torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
        self.mesh = init_device_mesh("cuda", (dist.get_world_size(),))
        self.lr = lr
        self.model = apply_fsdp(CausalLM().cuda(), self.mesh)
        self.optimizer = None

    def create_optimizer(self):
        if self.optimizer is None:
            self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.lr)
        return self.optimizer

    def train(self, loader, steps: int = 1000):
        optimizer = self.create_optimizer()
        self.model.train()
        for step, tokens in enumerate(loader):
            if step == steps:
                break
            logits = self.model(tokens[:, :-1])
            loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
