# torch 2.13, CPU, one gloo rank, real fully_shard: load_state_dict(..., assign=True) puts new
# Parameter objects in the model; an optimizer built before it keeps the old ones and its step()
# changes nothing. Built after it, step() updates every parameter.

import argparse

import torch

from checkpoint import load_full_checkpoint
from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp


def main(loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--init-from", required=True)
    args = parser.parse_args()
    mesh = init_distributed()
    with torch.device("meta"):
        model = Transformer(32000, 2048, 24)
    apply_fsdp(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)  # expect: FSD202
    load_full_checkpoint(model, args.init_from)
    for tokens in loader:
        model(tokens).float().mean().backward()
        optimizer.step()
        optimizer.zero_grad()
