import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import fully_shard

from export import gather_full_state


def setup_model(width):
    model = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    return model


class Exporter:
    def __init__(self, path):
        self.path = path

    def export(self, model):
        state = gather_full_state(model)  # every rank joins the gathers
        if dist.get_rank() == 0:
            torch.save(state, self.path)


def main():
    dist.init_process_group("nccl")
    torch.cuda.set_device(dist.get_rank())
    model = setup_model(64)
    Exporter("consolidated.pt").export(model)


if __name__ == "__main__":
    main()
