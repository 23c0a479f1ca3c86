"""GPT pretraining with gradient accumulation: HSDP (FSDP2) with a device mesh, DDP without one.
Only the last micro-batch of a step may synchronise gradients."""

import argparse
import os

import torch
import torch.nn.functional as F
from torch.distributed.fsdp import FSDPModule
from torch.nn.parallel import DistributedDataParallel as DDP

from dist_utils import init_distributed
from model import Transformer
from parallel import parallelize


def main(args, loader):
    mesh = init_distributed(args.fsdp_degree)
    with torch.device("meta"):
        model = Transformer(vocab_size=50304, dim=args.dim, n_layers=args.n_layers)
    if mesh is not None:
        parallelize(model, mesh)
    model.to_empty(device="cuda")
    model.apply(lambda m: m.reset_parameters() if hasattr(m, "reset_parameters") else None)
    if mesh is None:
        local_rank = int(os.environ["LOCAL_RANK"])
        model = DDP(model, device_ids=[local_rank], output_device=local_rank)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for step in range(args.steps):
        for micro in range(args.accum):
            tokens = next(loader).cuda()
            logits = model(tokens[:, :-1])
            loss = F.cross_entropy(logits.flatten(0, 1).float(), tokens[:, 1:].flatten()) / args.accum
            last = micro == args.accum - 1
            if isinstance(model, (DDP, FSDPModule)) and not last:
                with model.no_sync():  # expect: FSD203
                    loss.backward()
            else:
                loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fsdp-degree", type=int, default=8)
    parser.add_argument("--dim", type=int, default=1024)
    parser.add_argument("--n-layers", type=int, default=16)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--accum", type=int, default=4)
    main(parser.parse_args(), loader=None)
