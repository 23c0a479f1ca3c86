from torch import nn
from torch.distributed.fsdp import fully_shard


class Stage(nn.Module):
    def __init__(self, dim: int, vocab: int):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, x):
        return self.body(x)


def build_stages(dim: int, vocab: int, mesh):
    stages = nn.Sequential(Stage(dim, vocab), Stage(dim, vocab))
    for stage in stages:
        fully_shard(stage.body, mesh=mesh)
        fully_shard(stage.lm_head, mesh=mesh)
        fully_shard(stage, mesh=mesh)
    return stages
