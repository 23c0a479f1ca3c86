import torch
from torch.distributed.fsdp import fully_shard


class ProjectionRunner:
    """A plain holder (not an nn.Module): it owns no parameters of its own."""

    def __init__(self, shard: bool) -> None:
        if shard:
            self.proj = torch.nn.Linear(8, 8)
            fully_shard(self.proj)
        else:
            self.proj = None

    @torch.no_grad()
    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(x) if self.proj is not None else x
