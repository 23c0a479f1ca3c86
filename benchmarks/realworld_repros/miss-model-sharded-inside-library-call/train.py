import os

import torch
import torch.distributed as dist

from actor import Actor


def main(pretrain, distributed_setup, batches):
    actor = Actor(pretrain, distributed_setup)
    optimizer = torch.optim.AdamW(actor.model.parameters())
    for input_ids in batches:
        actor.logprobs(input_ids).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    if dist.get_rank() == 0:
        torch.save(actor.model.state_dict(), os.path.join("checkpoints", "model.pt"))
