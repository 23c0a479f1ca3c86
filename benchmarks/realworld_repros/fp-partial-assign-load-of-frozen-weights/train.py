import torch
from torch.distributed.fsdp import fully_shard

from checkpoint import load_base_checkpoint
from model import Net, mark_only_lora_as_trainable


def main(path, loader):
    model = Net()
    mark_only_lora_as_trainable(model)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    load_base_checkpoint(model, path, strict=False)
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
