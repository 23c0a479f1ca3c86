import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from checkpoint import save
from model import SequenceModel


def train_worker(steps: int):
    dist.init_process_group("gloo")
    model = SequenceModel()
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model.initialize_optimizer(lr=3e-4)
    for _ in range(steps):
        loss = model(torch.randn(8, 32, 64)).square().mean()
        loss.backward()
        model.optimizer.step()
        model.scheduler.step()
        model.optimizer.zero_grad()
    save(model, "checkpoint.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    train_worker(100)
