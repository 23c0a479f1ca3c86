import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from task import DiffusionTask


class TrainingModule(nn.Module):
    """Runs the objective inside one module forward, so FSDP keeps the root's parameters
    gathered from the model's forward to the loss."""

    def __init__(self, model, task):
        super().__init__()
        self.model = model
        self.task = task

    def forward(self, batch):
        output = self.task.forward(self.model, batch)
        return self.task.loss(self.model, batch, output)


def main(net, batches):
    module = TrainingModule(net, DiffusionTask(mask_token_id=0))
    for layer in net.layers:
        fully_shard(layer)
    fully_shard(module)
    optimizer = torch.optim.AdamW(module.parameters())
    for batch in batches:
        module(batch).backward()
        optimizer.step()
        optimizer.zero_grad()
