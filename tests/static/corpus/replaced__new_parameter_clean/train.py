# torch 2.13, CPU, one gloo rank, real fully_shard: a module.weight = nn.Parameter(...) made after
# the optimizer is never updated by its step() (the optimizer holds the old tensor), and on a
# sharded module FSDP does not manage it either.

import torch

from dist_utils import init_distributed
from heads import reset_output_head
from model import Transformer
from parallel import apply_fsdp


def finetune(loader, pretrained: str):
    mesh = init_distributed()
    model = Transformer(32000, 1024, 12)
    model.load_state_dict(torch.load(pretrained, map_location="cpu", weights_only=True))
    reset_output_head(model)
    apply_fsdp(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    for tokens, labels in loader:
        torch.nn.functional.cross_entropy(model(tokens)[:, -1], labels).backward()
        optimizer.step()
        optimizer.zero_grad()
