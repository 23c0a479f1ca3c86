import argparse
import logging

import torch
import torch.nn.functional as F

from distributed import init_distributed_device, shard_model
from model import VisionTransformer


def main(args: argparse.Namespace) -> None:
    device = init_distributed_device(args)
    if args.fsdp and not args.distributed:
        logging.warning("--fsdp needs a distributed launch (torchrun); training without it")
        args.fsdp = False

    model = VisionTransformer().to(device)
    if args.distributed:
        if args.fsdp:
            shard_model(model)
        else:
            model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index])
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)  # over the sharded parameters

    for step in range(args.steps):
        images = torch.randn(args.batch_size, 3, 224, 224, device=device)
        targets = torch.randn(args.batch_size, 512, device=device)
        loss = F.mse_loss(model(images), targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp", action="store_true")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--steps", type=int, default=1000)
    main(parser.parse_args())
