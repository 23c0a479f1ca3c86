import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from runner import RunnerConfig


def main(loader):
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    runner = RunnerConfig(lr=3e-4, dp_config={"reshard_after_forward": True}).build(mesh)
    for views in loader:
        runner.train_batch(views)
