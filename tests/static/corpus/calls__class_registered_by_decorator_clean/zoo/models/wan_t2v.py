import torch
from torch import nn
from torch.distributed.fsdp import FSDPModule

from zoo.registry import MODEL_REGISTER


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

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


@MODEL_REGISTER("wan_t2v")
class WanT2VModel:
    def __init__(self, config):
        self.transformer = WanTransformer(config["dim"], config["n_blocks"])

    def denoiser_module(self):
        return self.transformer

    def denoise(self, latents):
        noise_pred = self.transformer(latents)
        if isinstance(self.transformer, FSDPModule):
            self.transformer.reshard()
        return noise_pred
