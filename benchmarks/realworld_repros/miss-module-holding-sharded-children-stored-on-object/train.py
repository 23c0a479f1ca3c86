import torch
import torch.distributed as dist

from setup import build_system
from trainer import Trainer


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    system = build_system(8, 2)["system"]
    optimizer = torch.optim.AdamW(system.parameters())
    trainer = Trainer(system=system, optimizers=[optimizer])
    trainer.save("model.pt")
