import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import fully_shard


class Engine:
    def __init__(self):
        self.models = {}

    def build(self):
        model = nn.Sequential(*[nn.Linear(8, 8) for _ in range(4)])
        for block in model:
            fully_shard(block)
        fully_shard(model)
        self.models["backbone"] = model

    def save(self, path):
        if dist.get_rank() == 0:
            torch.save(self.models["backbone"].state_dict(), path)


def main():
    engine = Engine()
    engine.build()
    engine.save("backbone.pt")


if __name__ == "__main__":
    main()
