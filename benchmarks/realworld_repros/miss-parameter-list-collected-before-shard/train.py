import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([torch.nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def main():
    dist.init_process_group("gloo")
    model = Net()
    trainable = [p for p in model.parameters() if p.requires_grad]
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.AdamW(trainable, lr=1e-3)
    model(torch.randn(2, 8)).sum().backward()
    optimizer.step()


if __name__ == "__main__":
    main()
