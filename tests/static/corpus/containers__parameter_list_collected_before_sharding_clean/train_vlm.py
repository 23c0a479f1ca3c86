import argparse

import torch
import torch.distributed as dist

from model import RadarVLM
from parallel import shard_for_full_finetune
from stages import configure_stage
from trainer import Trainer


def main(loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--stage", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()
    dist.init_process_group("nccl")
    model = RadarVLM()
    model = shard_for_full_finetune(model, torch.bfloat16)
    trainable = configure_stage(model, args.stage)
    optimizer = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.05)
    Trainer(model, optimizer).fit(loader)
