from torch import nn
from torch.distributed.fsdp import fully_shard


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return self.lin(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(8, 2)

    def apply_fsdp(self):
        for block in self.blocks:
            fully_shard(block)
        fully_shard(self)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)
