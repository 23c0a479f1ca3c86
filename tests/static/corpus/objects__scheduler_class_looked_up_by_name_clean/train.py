import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from config import TrainConfig
from model import TransformerModel


def train_worker(config: TrainConfig):
    dist.init_process_group("nccl")
    model = TransformerModel(config)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model.initialize_optimizer()
    for step in range(config.steps):
        model.train_step(torch.randn(8, 16, device="cuda"))
        if dist.get_rank() == 0 and step % 50 == 49:
            model.save(f"trainer_state_{step}.pt", step)
