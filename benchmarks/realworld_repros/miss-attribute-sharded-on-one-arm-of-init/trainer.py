import torch
from torch.distributed.fsdp import fully_shard

from projector import Projector


class MultimodalTrainer:
    def __init__(self, is_vision_rank: bool):
        if is_vision_rank:
            self.projector = Projector()
            fully_shard(self.projector)
        else:
            self.projector = None

    def embed(self, feats: torch.Tensor) -> torch.Tensor:
        return self.projector.forward(feats)

    def save(self, path: str) -> None:
        torch.save(self.projector.state_dict(), path)
