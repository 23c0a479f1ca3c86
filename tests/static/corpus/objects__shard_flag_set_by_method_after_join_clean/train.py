import argparse
import os

import torch
import torch.distributed as dist

from model import TextEncoder
from task import TrainingTask


def checkpoint_dict(task: TrainingTask, optimizer: torch.optim.Optimizer, epoch: int) -> dict:
    """What an epoch's checkpoint holds; every rank builds it (gathering is a collective)."""
    return {"epoch": epoch, "state_dict": task.state_dict(), "lr": optimizer.param_groups[0]["lr"]}


def main(args: argparse.Namespace) -> None:
    if args.fsdp:
        dist.init_process_group("nccl")
        torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    task = TrainingTask(TextEncoder())
    if args.fsdp:
        task.prepare_fsdp(reshard_after_forward=not args.no_reshard)
    optimizer = torch.optim.AdamW(task.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        for _ in range(args.steps_per_epoch):
            tokens = torch.randint(0, 49408, (8, 77))
            loss = task.training_step(tokens, torch.randn(8, 512))
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        checkpoint = checkpoint_dict(task, optimizer, epoch + 1)
        if not dist.is_initialized() or dist.get_rank() == 0:
            torch.save(checkpoint, os.path.join(args.output_dir, f"epoch_{epoch + 1}.pt"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp", action="store_true")
    parser.add_argument("--no-reshard", action="store_true")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--steps-per-epoch", type=int, default=100)
    parser.add_argument("--output-dir", default="checkpoints")
    main(parser.parse_args())
