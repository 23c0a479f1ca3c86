import torch
import torch.distributed as dist

from rl.workers.actor import ActorWorker


def main(config):
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
    worker = ActorWorker(config)
    worker.init_model()
    worker.save(config["checkpoint_path"])
