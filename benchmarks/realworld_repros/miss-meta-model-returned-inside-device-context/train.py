import torch
from torch.distributed.fsdp import fully_shard

from model import Block, build


def train_step(model, optimizer):
    loss = model(torch.randn(2, 4)).sum()
    loss.backward()
    optimizer.step()


def main():
    model = build()
    for module in model.modules():
        if isinstance(module, Block):
            fully_shard(module)
    fully_shard(model)
    model.to_empty(device=torch.device("cuda"))
    optimizer = torch.optim.AdamW(model.parameters())
    train_step(model, optimizer)


if __name__ == "__main__":
    main()
