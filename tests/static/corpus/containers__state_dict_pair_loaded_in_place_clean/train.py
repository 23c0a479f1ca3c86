import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

from model import Transformer
from seed import load_seed_checkpoint


def build(seed_checkpoint):
    with torch.device("meta"):
        model = Transformer()
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    model.to_empty(device="cuda")
    if seed_checkpoint:
        load_seed_checkpoint(model, seed_checkpoint)
    else:
        model.init_weights()
    return model


def main(args, loader):
    dist.init_process_group("nccl")
    model = build(args.seed_checkpoint)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for tokens, labels in loader:
        loss = torch.nn.functional.cross_entropy(model(tokens).flatten(0, 1), labels.flatten())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
