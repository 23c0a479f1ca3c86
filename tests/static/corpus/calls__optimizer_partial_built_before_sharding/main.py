import argparse
from functools import partial

import torch

from model import build_model
from parallel import wrap_model_fsdp
from trainer import Trainer


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=512)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--lr-max", type=float, default=3e-4)
    parser.add_argument("--weight-decay", type=float, default=0.05)
    return parser.parse_args()


def main(loader):
    args = parse_args()
    model = build_model(args.dim, args.depth)
    optimizer_init = partial(torch.optim.AdamW, lr=args.lr_max, weight_decay=args.weight_decay)
    optimizer = optimizer_init(model.parameters())  # expect: FSD202
    model = wrap_model_fsdp(model, torch.bfloat16)
    Trainer(model, optimizer).fit(loader)
