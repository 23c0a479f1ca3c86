import torch.distributed as dist

from learner import Learner


def train_loop_per_worker():
    world_size = dist.get_world_size()
    learner = Learner(world_size=world_size)
    if dist.get_rank() == 0:
        learner.save_checkpoint("ckpt")
