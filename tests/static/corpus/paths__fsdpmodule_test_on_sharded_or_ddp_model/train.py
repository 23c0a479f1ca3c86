import argparse

import torch
import torch.nn.functional as F

from checkpoint import save_checkpoint
from dist_utils import init_distributed
from model import Transformer
from parallel import wrap_model


def main(loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--strategy", choices=["ddp", "fsdp"], default="fsdp")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--save-every", type=int, default=200)
    parser.add_argument("--out", default="checkpoints")
    args = parser.parse_args()
    mesh = init_distributed()
    device = torch.device("cuda", torch.cuda.current_device())
    model = wrap_model(Transformer(32000, 2048, 16), args.strategy, mesh, device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step, batch in zip(range(1, args.steps + 1), loader):
        tokens = batch["input_ids"].to(device)
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.flatten(0, 1).float(), tokens[:, 1:].flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % args.save_every == 0:
            save_checkpoint(model, args.out, step)
