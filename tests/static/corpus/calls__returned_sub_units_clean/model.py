import math

import torch
import torch.nn.functional as F
from torch import nn

from encoders import build_image_encoder, build_text_encoder


class Tower(nn.Module):
    """An encoder and the projection into the shared embedding space."""

    def __init__(self, backbone: nn.Module, dim: int, embed_dim: int):
        super().__init__()
        self.backbone = backbone
        self.proj = nn.Linear(dim, embed_dim, bias=False)

    def forward(self, x):
        return F.normalize(self.proj(self.backbone(x)), dim=-1)


class ContrastiveModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.image_tower = Tower(build_image_encoder(cfg), cfg.dim, cfg.embed_dim)
        self.text_tower = Tower(build_text_encoder(cfg), cfg.dim, cfg.embed_dim)
        # the temperature is trained with the towers, and lives on the root
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, images, tokens):
        image = self.image_tower(images)
        text = self.text_tower(tokens)
        return self.logit_scale.exp() * image @ text.t()
