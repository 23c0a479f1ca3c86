import lightning as L
import torch
import torch.nn.functional as F
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import Transformer


class LitLM(L.LightningModule):
    def __init__(self, vocab_size: int = 32000, lr: float = 3e-4):
        super().__init__()
        self.lr = lr
        self.model = Transformer(vocab_size, 2048, 24)

    def configure_model(self):
        mesh = self.device_mesh["data_parallel"]
        mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for block in self.model.layers:
            fully_shard(block, mesh=mesh, mp_policy=mp_policy)
        fully_shard(self.model, mesh=mesh, mp_policy=mp_policy)

    def forward(self, tokens):
        return self.model(tokens)

    def training_step(self, batch, batch_idx):
        logits = self.forward(batch["input_ids"])
        loss = F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())
        self.log("train/loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.model.parameters(), lr=self.lr, fused=True)
