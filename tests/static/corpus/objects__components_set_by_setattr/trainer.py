import torch
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from components import load_components

COMPONENT_NAMES = ["denoiser", "text_encoder"]


class DiffusionTrainer:
    def __init__(self, path: str, lr: float = 1e-4):
        self.path = path
        self.lr = lr
        self.denoiser = None
        self.text_encoder = None

    def _set_components(self, components: dict) -> None:
        for name in COMPONENT_NAMES:
            setattr(self, name, components.get(name, getattr(self, name, None)))

    def prepare(self) -> None:
        self._set_components(load_components(self.path))
        policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for block in self.denoiser.blocks:
            fully_shard(block, mp_policy=policy)
        fully_shard(self.denoiser, mp_policy=policy)
        self.text_encoder.requires_grad_(False)

    def train(self, batches) -> None:
        optimizer = torch.optim.AdamW(self.denoiser.parameters(), lr=self.lr)
        for step, (captions, latents) in enumerate(batches):
            with torch.no_grad():
                context = self.text_encoder(captions)
            loss = torch.nn.functional.mse_loss(self.denoiser(latents, context), latents)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if step == 0:
                self.denoiser.to(torch.bfloat16)  # expect: FSD204
