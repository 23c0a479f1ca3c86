import torch
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

from init_utils import init_model_weights
from model import Net


def main():
    mesh = init_device_mesh("cuda", (torch.distributed.get_world_size(),))
    with torch.device("meta"):
        model = Net()
    for block in model.blocks:
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    model.to_empty(device="cuda")
    init_model_weights(model)
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(3):
        model(torch.randint(0, 10, (4, 16), device="cuda")).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
