from torch import nn
from torch.distributed.fsdp import fully_shard


class Encoder(nn.Module):
    def __init__(self, dim: int = 384, depth: int = 12):
        super().__init__()
        self.patch = nn.Conv2d(12, dim, kernel_size=8, stride=8)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(dim, 6, batch_first=True) for _ in range(depth))

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        for block in self.blocks:
            x = block(x)
        return x

    def apply_fsdp(self, mesh):
        for block in self.blocks:
            fully_shard(block, mesh=mesh)
        fully_shard(self, mesh=mesh)
