import os
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from trainer import Trainer


@dataclass
class Config:
    vocab_size: int = 32000
    dim: int = 1024
    n_layers: int = 16
    lr: float = 1e-5
    temperature: float = 1.0
    pretrained: str = "checkpoints/base.pt"


def main(loader):
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    trainer = Trainer(Config(), mesh)
    trainer.fit(loader)
