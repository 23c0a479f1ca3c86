from torch import nn
from torch.distributed.fsdp import fully_shard


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class Wrapper:
    """Holds the sharded model, as a backend object of a factory does."""

    def __init__(self, model):
        self.model = model

    @staticmethod
    def from_config(dp):
        model = Net()
        if dp > 1:
            for block in model.blocks:
                fully_shard(block)
            fully_shard(model)
        return Wrapper(model)

    def forward(self, x):
        return self.model.forward(x)
