import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from registry import EngineRegistry


@EngineRegistry.register(backend="fsdp2")
class FSDP2Engine:
    def __init__(self, dim):
        self.dim = dim
        self.module = None

    def initialize(self):
        module = torch.nn.Sequential(torch.nn.Linear(self.dim, self.dim), torch.nn.Linear(self.dim, self.dim))
        for layer in module:
            fully_shard(layer)
        fully_shard(module)
        self.module = module

    def save_checkpoint(self, path):
        if dist.get_rank() == 0:
            torch.save(self.module.state_dict(), path)
