import lightning.pytorch as pl
import torch
from torch.distributed.fsdp import fully_shard

from net import Net


class SpeechLM(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.llm = Net()

    def configure_model(self):
        if self.device_mesh is None:
            return
        dp_mesh = self.device_mesh["data_parallel"]
        for idx, layer in enumerate(self.llm.layers):
            self.llm.layers[idx] = fully_shard(layer, mesh=dp_mesh)
        self.llm = fully_shard(self.llm, mesh=dp_mesh)

    def forward(self, x):
        return self.llm.forward(x)

    def training_step(self, batch, batch_idx):
        return self(batch)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)
