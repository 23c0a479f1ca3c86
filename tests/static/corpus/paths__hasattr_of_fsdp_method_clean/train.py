import argparse
import contextlib

import torch
import torch.distributed as dist

from model import Flow
from parallel import parallelize_model
from sync import sync_ctx


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp", action="store_true")
    parser.add_argument("--grad-accum-steps", type=int, default=4)
    args = parser.parse_args()
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    model, model_ddp = parallelize_model(args, Flow(), dist.get_world_size() > 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(1000):
        needs_update = (step + 1) % args.grad_accum_steps == 0
        x = torch.randn(16, 256, device="cuda")
        with sync_ctx(model_ddp, sync=needs_update) if args.grad_accum_steps > 1 else contextlib.nullcontext():
            loss = (model_ddp(x) - x).pow(2).mean()
            loss.backward()
        if needs_update:
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
