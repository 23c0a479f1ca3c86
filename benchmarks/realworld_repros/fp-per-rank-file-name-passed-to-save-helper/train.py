import torch
from torch.distributed.fsdp import fully_shard

from checkpoint import save_rank_local


def main(model, batches):
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters())
    for batch in batches:
        model(batch).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
    save_rank_local(model, optimizer, "checkpoints")
