from torch import nn
from torch.distributed.fsdp import fully_shard


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x

    def apply_fsdp(self, **kwargs):
        for block in self.blocks:
            fully_shard(block, **kwargs)
        fully_shard(self, **kwargs)


class MAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.head = nn.Linear(8, 8)

    def forward(self, x):
        return self.head(self.encoder(x))

    def apply_fsdp(self, **kwargs):
        self.encoder.apply_fsdp(**kwargs)
        fully_shard(self, **kwargs)
