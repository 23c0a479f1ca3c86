import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from model import Decoder
from parallelize import apply_fsdp


def main():
    dist.init_process_group("gloo")
    mesh = init_device_mesh("cpu", (dist.get_world_size(),))
    model = apply_fsdp(Decoder(), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(10):
        loss = model(torch.randn(4, 16, 256)).square().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
