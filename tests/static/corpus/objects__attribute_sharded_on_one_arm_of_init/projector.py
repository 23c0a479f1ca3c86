import torch
from torch import nn


class Projector(nn.Module):
    """Maps vision-encoder features into the language model's embedding space."""

    def __init__(self, vision_dim: int = 1024, lm_dim: int = 2048):
        super().__init__()
        self.norm = nn.LayerNorm(vision_dim)
        self.fc1 = nn.Linear(vision_dim, lm_dim)
        self.fc2 = nn.Linear(lm_dim, lm_dim)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.nn.functional.gelu(self.fc1(self.norm(feats))))
