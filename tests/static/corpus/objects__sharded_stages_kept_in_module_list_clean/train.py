import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.device_mesh import init_device_mesh

from dualpipe.schedule import PipelineSchedule
from stages import build_stages


def setup_model(mesh):
    stages = build_stages(256, 1000, mesh)
    return PipelineSchedule(stages)


def main():
    dist.init_process_group("gloo")
    mesh = init_device_mesh("cpu", (dist.get_world_size(),))
    schedule = setup_model(mesh)
    optimizer = torch.optim.AdamW(schedule.parameters(), lr=1e-4)
    for _ in range(5):
        inputs, targets = torch.randn(16, 256), torch.randint(0, 1000, (16,))
        schedule.step(inputs, targets, F.cross_entropy)
        optimizer.step()
        optimizer.zero_grad()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
