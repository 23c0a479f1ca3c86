import torch
from torch import nn
from torch.distributed.fsdp import fully_shard


def create_optimizers(model):
    decay = [p for p in model.parameters() if p.ndim == 2]
    no_decay = [p for p in model.parameters() if p.ndim != 2]
    optimizers = []
    optimizers.append(torch.optim.AdamW(decay, weight_decay=0.01))
    optimizers.append(torch.optim.AdamW(no_decay, weight_decay=0.0))
    return optimizers


def main():
    model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    optimizers = create_optimizers(model)
    model(torch.randn(4, 8)).sum().backward()
    for opt in optimizers:
        opt.step()
    torch.save({f"optimizer_{i}": o.state_dict() for i, o in enumerate(optimizers)}, "all_optimizers.pt")


if __name__ == "__main__":
    main()
