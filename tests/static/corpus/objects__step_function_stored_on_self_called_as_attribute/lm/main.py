import torch
import torch.distributed as dist

from lm.model import build_sharded_model
from lm.trainer import Trainer


def main(config, loader):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    model = build_sharded_model(config)
    Trainer(model, config).fit(loader)
