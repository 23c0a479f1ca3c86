import torch
from torch import nn
from torch.distributed.fsdp import fully_shard


class TeacherProjection(nn.Module):
    """Projects the student's features into the teacher's space, then scales them."""

    def __init__(self, dim: int, shard: bool) -> None:
        super().__init__()
        self.scale = nn.Linear(dim, dim)
        if shard:
            self.proj = nn.Linear(dim, dim)
            fully_shard(self.proj)
        else:
            self.proj = None

    @torch.no_grad()
    def __call__(self, features: torch.Tensor) -> torch.Tensor:
        projected = self.proj(features) if self.proj is not None else features
        return self.scale(projected)
