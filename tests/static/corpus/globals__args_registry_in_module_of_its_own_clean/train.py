import argparse

import torch
import torch.distributed as dist

from checkpoint import save_checkpoint
from global_vars import set_args
from model import GPT
from parallel import wrap_model


def initialize(args):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    set_args(args)


def train(args):
    model = wrap_model(GPT())
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for iteration in range(args.train_iters):
        tokens = torch.randint(0, 1000, (8, 128), device="cuda")
        loss = model(tokens).float().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if (iteration + 1) % args.save_interval == 0:
            save_checkpoint(args.save, model, iteration + 1, args)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp-version", dest="fsdp_version", choices=["fsdp1", "fsdp2"], default="fsdp2")
    parser.add_argument("--use-orig-params", action="store_true")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--train-iters", type=int, default=100)
    parser.add_argument("--save-interval", type=int, default=50)
    parser.add_argument("--save", default="checkpoints")
    args = parser.parse_args()
    args.parallel = argparse.Namespace(fsdp_version=args.fsdp_version, use_orig_params=args.use_orig_params)
    return args


if __name__ == "__main__":
    args = parse_args()
    initialize(args)
    train(args)
