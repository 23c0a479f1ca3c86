import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from rl.engine.registry import EngineRegistry


def build_policy(config):
    return torch.nn.Sequential(*[torch.nn.Linear(config["dim"], config["dim"]) for _ in range(config["layers"])])


@EngineRegistry.register(backend="fsdp2")
class FSDP2Engine:
    def __init__(self, config):
        self.config = config
        self.module = None
        self.optimizer = None

    def initialize(self):
        module = build_policy(self.config)
        for layer in module:
            fully_shard(layer)
        fully_shard(module)
        self.module = module
        self.optimizer = torch.optim.AdamW(module.parameters(), lr=self.config["lr"])

    def save_checkpoint(self, path):
        if dist.get_rank() == 0:
            torch.save(self.module.state_dict(), path)  # expect: FSD301
