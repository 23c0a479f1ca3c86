import argparse

import torch
import torch.distributed as dist

from checks import dry_run
from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bf16", action="store_true")
    parser.add_argument("--steps", type=int, default=1000)
    return parser.parse_args()


def setup(args):
    mesh = init_distributed()
    model = Transformer(50257, 768, 12)
    if dist.get_world_size() > 1:
        apply_fsdp(model, mesh, param_dtype=torch.bfloat16 if args.bf16 else torch.float32)
    else:
        model.to("cuda")
    dry_run(model)
    if args.bf16:
        model.to(torch.bfloat16)  # expect: FSD204
    return model


def main():
    args = parse_args()
    model = setup(args)
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    return model, optimizer
