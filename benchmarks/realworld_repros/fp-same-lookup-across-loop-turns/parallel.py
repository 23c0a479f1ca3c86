from torch import nn
from torch.distributed.fsdp import fully_shard


class Expert(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.gate = nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)


def shard_named(model, names):
    """Each named submodule's gate, then the submodule; the root last: bottom-up."""
    for name in names:
        sub = getattr(model, name)
        fully_shard(sub.gate)
        fully_shard(sub)
    fully_shard(model)
