import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

from checks import compare_with_reference
from model import GroupedExperts


def main():
    dist.init_process_group("gloo")
    mesh = init_device_mesh("cpu", (dist.get_world_size(),))
    model = GroupedExperts(n_experts=4, dim=16, hidden=32)
    torch.nn.init.normal_(model.weight, std=0.02)
    reference = model.weight.detach().clone().double()
    bias = model.proj.bias.detach().clone().double()
    fully_shard(model.proj, mesh=mesh)
    fully_shard(model, mesh=mesh)
    inputs = torch.randn(8, 16)
    model(inputs).sum().backward()
    compare_with_reference(model, reference, bias)


if __name__ == "__main__":
    main()
