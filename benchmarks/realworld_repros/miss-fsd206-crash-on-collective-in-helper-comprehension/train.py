import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from weights import gather_full_state


def setup_model():
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    return model


def save(model, path):
    if dist.get_rank() == 0:
        torch.save(gather_full_state(model), path)


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    model = setup_model()
    save(model, "weights.pt")


if __name__ == "__main__":
    main()
