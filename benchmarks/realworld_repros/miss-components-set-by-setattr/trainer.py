import torch
from torch.distributed.fsdp import fully_shard

from components import load_components

COMPONENT_NAMES = ["denoiser", "encoder"]


class DiffusionTrainer:
    def __init__(self, path):
        self.path = path
        self.denoiser = None
        self.encoder = None

    def _set_components(self, components):
        for name in COMPONENT_NAMES:
            setattr(self, name, components.get(name, getattr(self, name, None)))

    def run(self, batches):
        self._set_components(load_components(self.path))
        for block in self.denoiser.blocks:
            fully_shard(block)
        fully_shard(self.denoiser)
        optimizer = torch.optim.AdamW(self.denoiser.parameters(), lr=1e-4)
        for batch in batches:
            loss = self.denoiser(self.encoder(batch)).mean()
            loss.backward()
            optimizer.step()
            self.denoiser.to(torch.bfloat16)
