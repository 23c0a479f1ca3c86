import torch
from torch import nn


class WanBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.ffn = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.ffn(torch.nn.functional.gelu(self.attn(x)))


class WanTransformer(nn.Module):
    def __init__(self, dim, n_blocks):
        super().__init__()
        self.blocks = nn.ModuleList(WanBlock(dim) for _ in range(n_blocks))
        self.head = nn.Linear(dim, dim)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class WanModel:
    def __init__(self, dim, n_blocks):
        self.transformer = WanTransformer(dim, n_blocks)

    def denoiser_module(self):
        return self.transformer

    def fsdp2_shard_plan(self):
        # what to shard, in order: every block, then the root
        return [
            {"modules": self.transformer.blocks, "reshard_after_forward": True},
            {"module": self.transformer, "reshard_after_forward": False},
        ]

    def denoise(self, latents):
        return self.transformer(latents)
