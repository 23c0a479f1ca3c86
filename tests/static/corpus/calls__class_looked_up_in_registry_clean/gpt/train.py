import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.fsdp import fully_shard

from gpt.models import MODEL_REGISTRY
from gpt.optim import build_optimizer


class Trainer:
    def __init__(self, config):
        self.config = config
        dist.init_process_group("nccl")
        torch.cuda.set_device(dist.get_rank() % torch.cuda.device_count())
        self.model = MODEL_REGISTRY[config.model.type](config.model)
        for layer in self.model.layers:
            fully_shard(layer)
        fully_shard(self.model)
        self.optimizer = build_optimizer(self.model, config.optim)

    def train(self, loader):
        for ids in loader:
            logits = self.model(ids[:, :-1])
            F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten()).backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
