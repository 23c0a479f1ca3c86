import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

from algorithm import PolicyGradient


def main(rollouts):
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    agent = PolicyGradient(mesh)
    for tokens, advantages in rollouts:
        agent.learn(tokens, advantages)
