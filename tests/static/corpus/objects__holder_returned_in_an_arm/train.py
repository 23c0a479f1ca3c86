import os

import torch
import torch.distributed as dist

from factory import make_backend


def main(loader):
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    backend = make_backend(os.environ.get("BACKEND", "fsdp"), dist.get_world_size())
    optimizer = torch.optim.AdamW(backend.model.parameters(), lr=1e-4)
    for x, y in loader:
        torch.nn.functional.cross_entropy(backend.logits(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
