# torch 2.13, CPU, 2 gloo ranks, real fully_shard: load_state_dict(sd, strict=False, assign=True)
# replaces the parameters whose keys sd holds and keeps the others; an optimizer built before a
# load of the base checkpoint (no `lora_` keys) still trains the adapters the forward uses. A
# checkpoint of the whole fine-tuned model, loaded strictly, replaces the adapters too: the
# optimizer built before it updates tensors the model no longer holds.

import torch
from torch.distributed.device_mesh import init_device_mesh

from checkpoint import load_from_full_checkpoint
from model import LoRAModel, mark_only_lora_as_trainable
from parallel import shard_model


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.mesh = init_device_mesh("cpu", (cfg.world_size,))

    def setup(self):
        model = LoRAModel(self.cfg.vocab_size, self.cfg.dim, self.cfg.n_layers)
        mark_only_lora_as_trainable(model)
        self.model = shard_model(model, self.mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.cfg.lr)
        load_from_full_checkpoint(self.model, self.cfg.base_checkpoint, strict=False)

    def train(self, loader):
        self.setup()
        for tokens, labels in loader:
            logits = self.model(tokens)
            loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
