import torch
from pydantic import BaseModel
from torch.distributed.fsdp import fully_shard

from adapter import Adapter


class ShardMixin:
    @property
    def is_main_process(self):
        return self.rank == 0

    def load_transformer(self, model):
        model.load_transformer()
        for block in model.transformer.blocks:
            fully_shard(block)
        fully_shard(model.transformer)
        return model


class SftTrainer(ShardMixin, BaseModel):
    model: Adapter
    rank: int = 0

    @property
    def transformer(self):
        return self.model.transformer

    def after_step(self):
        if self.is_main_process:
            torch.save(self.transformer.state_dict(), "t.pt")

    def run(self):
        self.load_transformer(self.model)
        for _ in range(3):
            self.model.predict(torch.randn(2, 8)).sum().backward()
            self.after_step()
