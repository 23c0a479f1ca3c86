import os

import torch
import torch.distributed as dist

from distributed import apply_fsdp2
from model import Net


def main(loader):
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    model = apply_fsdp2(Net())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for x, y in loader:
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
