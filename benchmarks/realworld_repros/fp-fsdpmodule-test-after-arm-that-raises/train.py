import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import fully_shard

from ckpt import save_training_state


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        return x + self.proj(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def prepare(model, model_type):
    if model_type == "net":
        for block in model.blocks:
            fully_shard(block)
    else:
        raise ValueError("unknown model type")
    fully_shard(model)
    return model


def main():
    model = prepare(Net(), "net")
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.randn(4, 8)).sum().backward()
    optimizer.step()
    if dist.get_rank() == 0:
        save_training_state(model, "model.pt")


if __name__ == "__main__":
    main()
