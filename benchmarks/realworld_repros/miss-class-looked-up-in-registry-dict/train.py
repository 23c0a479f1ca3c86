import torch
from torch.distributed.fsdp import fully_shard

from models import MODEL_REGISTRY
from optim import build_optimizer


class Trainer:
    def __init__(self, model_type, dim, num_layers, lr):
        self.model = MODEL_REGISTRY[model_type](dim, num_layers)
        self.optimizer = build_optimizer(self.model, lr)
        for layer in self.model.layers:
            fully_shard(layer)
        fully_shard(self.model)

    def train_step(self, ids):
        self.model(ids).sum().backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
