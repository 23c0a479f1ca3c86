import lightning as L
import torch
import torch.nn.functional as F
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

from model import Transformer


class SpeechLM(L.LightningModule):
    """Shards its LLM in `configure_model`; the steps run it through `self(...)`."""

    def __init__(self, vocab_size: int = 32000, lr: float = 3e-4):
        super().__init__()
        self.lr = lr
        self.llm = Transformer(vocab_size, 1024, 16)
        self.audio_proj = torch.nn.Linear(80, 1024)

    def configure_model(self):
        if self.device_mesh is None:
            return
        mesh = self.device_mesh["data_parallel"]
        mp_policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        for idx, layer in enumerate(self.llm.layers):
            self.llm.layers[idx] = fully_shard(layer, mesh=mesh, mp_policy=mp_policy)
        self.llm = fully_shard(self.llm, mesh=mesh, mp_policy=mp_policy)

    def forward(self, tokens):
        return self.llm.forward(tokens)  # expect: FSD201

    def training_step(self, batch, batch_idx):
        logits = self(batch["input_ids"])
        loss = F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())
        self.log("train/loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        logits = self(batch["input_ids"])
        self.log("val/loss", F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten()))

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)
