"""Masked-language-model pretraining of ESM-2 with FSDP2: the fused encoder where Transformer
Engine is installed, the plain one otherwise; bf16 weights from the start (cast before the first
forward: FSDP's lazy initialisation adopts them), and a validation pass closes the run."""

import argparse

import torch
from torch.distributed.fsdp import fully_shard

from dist_utils import init_distributed
from model import EsmEncoder, FusedEsmEncoder, masked_lm_loss


def validate(model, loader, steps: int = 20):
    total = 0.0
    with torch.no_grad():
        for _, batch in zip(range(steps), loader):
            total += masked_lm_loss(model(batch["input_ids"].cuda()), batch["labels"].cuda()).item()
    return total / steps


def main(args, train_loader, val_loader):
    mesh = init_distributed()
    model = EsmEncoder(vocab_size=33, dim=args.dim, n_layers=args.n_layers)
    if args.use_te:
        model = FusedEsmEncoder(vocab_size=33, dim=args.dim, n_layers=args.n_layers)
    for layer in model.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    model.to(torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for step, batch in zip(range(args.steps), train_loader):
        loss = masked_lm_loss(model(batch["input_ids"].cuda()), batch["labels"].cuda())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"validation loss {validate(model, val_loader):.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--use-te", action="store_true")
    parser.add_argument("--dim", type=int, default=640)
    parser.add_argument("--n-layers", type=int, default=30)
    parser.add_argument("--lr", type=float, default=4e-4)
    parser.add_argument("--steps", type=int, default=10000)
    main(parser.parse_args(), train_loader=None, val_loader=None)
