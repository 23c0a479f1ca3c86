import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from checkpoint_io import save_each_rank, save_local_shards


def train(model, loader, directory, save_every=100):
    for block in model.layers:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step, batch in enumerate(loader):
        model(batch).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % save_every == 0:
            save_local_shards(model, optimizer, directory)
    save_each_rank(model, directory)


if __name__ == "__main__":
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    train(torch.nn.Sequential(), [], "checkpoints")
