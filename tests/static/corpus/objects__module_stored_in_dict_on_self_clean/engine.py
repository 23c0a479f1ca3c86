import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.fsdp import fully_shard

from models import Policy


class Engine:
    """Builds each configured model, shards it and keeps it by name."""

    def __init__(self, names):
        self.names = names
        self.models = {}

    def build_models(self, width):
        for name in self.names:
            model = Policy(width, 4)
            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)
            self.models[name] = model

    def save(self, path):
        dcp.save({"actor": self.models["actor"].state_dict()}, checkpoint_id=path)
        if dist.get_rank() == 0:
            torch.save({"names": self.names}, path + ".meta")
