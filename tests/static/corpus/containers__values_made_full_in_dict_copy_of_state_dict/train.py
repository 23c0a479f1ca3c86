import torch
import torch.distributed as dist

from backend import FSDPBackend
from model import Policy


def main(steps: int = 100):
    dist.init_process_group("gloo")
    backend = FSDPBackend(Policy())
    for step in range(steps):
        backend.train_step(torch.randn(16, 32), torch.randn(16, 1))
        if step % 50 == 49:
            backend.save(f"checkpoint_{step}.pt")
