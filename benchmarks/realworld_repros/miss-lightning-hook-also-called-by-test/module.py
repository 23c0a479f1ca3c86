import torch
from lightning.pytorch import LightningModule
from torch.distributed.fsdp import fully_shard


class LitLM(LightningModule):
    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def configure_model(self) -> None:
        for block in self.model.layers:
            fully_shard(block)
        fully_shard(self.model)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.model.parameters(), lr=1e-4)

    def training_step(self, batch, batch_idx):
        return self.model.forward(**batch).loss
