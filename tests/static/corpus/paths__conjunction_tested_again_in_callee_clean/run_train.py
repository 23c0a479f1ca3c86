import argparse

import torch.distributed as dist

from trainer import Trainer


def main(loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--with-ddp", action="store_true")
    parser.add_argument("--with-fsdp", action="store_true")
    parser.add_argument("--gather-full-weights", action="store_true")
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--n-layers", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-4)
    cf = parser.parse_args()
    cf.param_dtype = None
    if cf.with_ddp:
        dist.init_process_group("nccl")
    Trainer(cf).train(loader, "forecaster.pt")
