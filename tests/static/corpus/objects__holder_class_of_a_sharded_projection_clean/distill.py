import torch
from torch import nn
from torch.distributed.fsdp import fully_shard


class TeacherProjection:
    """Projects the student's features into the teacher's space: a plain holder, no module."""

    def __init__(self, dim: int, shard: bool) -> None:
        if shard:
            self.proj = nn.Linear(dim, dim)
            fully_shard(self.proj)
        else:
            self.proj = None

    @torch.no_grad()
    def __call__(self, features: torch.Tensor) -> torch.Tensor:
        return self.proj(features) if self.proj is not None else features
