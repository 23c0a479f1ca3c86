import os

import torch.distributed as dist

from learner import PolicyLearner


def train_loop_per_worker(config, batches):
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    if world_size > 1:
        dist.init_process_group("nccl")
    learner = PolicyLearner(config["vocab"], config["dim"], world_size=world_size, rank=rank)
    for step, (tokens, advantages) in enumerate(batches):
        learner.train_step(tokens, advantages)
        if step % 100 == 0:  # a collective where sharded: every rank saves its part
            learner.save_checkpoint(config["checkpoint_dir"])
