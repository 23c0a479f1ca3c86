import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from net import Net
from sample import generate_example


def main():
    dist.init_process_group("gloo")
    model = Net()
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    batch = torch.ones(4, 8)
    for step in range(10):
        model(batch).backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 5 == 0 and dist.get_rank() == 0:
            generate_example(model, batch)
        dist.barrier()


if __name__ == "__main__":
    main()
