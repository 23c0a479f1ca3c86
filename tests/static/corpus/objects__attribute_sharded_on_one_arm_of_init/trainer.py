import torch
from torch.distributed.fsdp import fully_shard

from checkpoint import save_projector
from projector import Projector


class MultimodalTrainer:
    def __init__(self, language_model, vision_dim: int, is_vision_rank: bool):
        self.model = language_model
        self._is_vision_rank = is_vision_rank
        if self._is_vision_rank:
            self.projector = Projector(vision_dim, 2048)
            fully_shard(self.projector)
        else:
            self.projector = None

    def post_dataloading_process(self, batch):
        if self.projector is not None and "vision_features" in batch:
            batch["inputs_embeds"] = self.projector.forward(batch["vision_features"])  # expect: FSD201
        return batch

    def train_step(self, batch, optimizer):
        batch = self.post_dataloading_process(batch)
        loss = self.model(batch["inputs_embeds"]).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return loss.detach()

    def checkpoint(self, step: int) -> None:
        save_projector(self.projector, f"projector_{step}.pt")
