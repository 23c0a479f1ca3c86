import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from model import TransformerModel


def train_worker():
    dist.init_process_group("nccl")
    model = TransformerModel("StepLR")
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model.initialize_optimizer()
    if dist.get_rank() == 0:
        model.save("checkpoint.pt")
