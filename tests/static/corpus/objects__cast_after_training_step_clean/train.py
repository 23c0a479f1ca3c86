import argparse

import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp
from precision import set_param_dtype
from trainer import Trainer


def main(loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--fp32-warmup-steps", type=int, default=500)
    args = parser.parse_args()
    mesh = init_distributed()
    model = Transformer(32000, 2048, 24)
    apply_fsdp(model, mesh)
    set_param_dtype(model, torch.bfloat16)  # before the first forward: FSDP's lazy init adopts it
    trainer = Trainer(model, lr=3e-4)
    trainer.fit(loader, steps=args.steps)
