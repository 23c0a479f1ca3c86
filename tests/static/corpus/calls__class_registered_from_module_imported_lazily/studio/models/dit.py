import torch
from torch import nn

from studio.registry import MODEL_REGISTER


class DiTBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.mlp(torch.nn.functional.silu(self.attn(x)))


class DiT(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.blocks = nn.ModuleList(DiTBlock(dim) for _ in range(depth))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


@MODEL_REGISTER("dit")
class DiTModel:
    def __init__(self, config):
        self.transformer = DiT(config["dim"], config["depth"])

    def denoiser_module(self):
        return self.transformer

    def denoise(self, latents):
        return self.transformer.forward(latents)  # expect: FSD201
