import torch
import torch.nn.functional as F
from torch.distributed.fsdp import register_fsdp_forward_method

from encoder import Classifier
from parallel import shard_classifier


class Trainer:
    def __init__(self, lr=1e-3):
        self.model = shard_classifier(Classifier())
        register_fsdp_forward_method(self.model.encoder, "forward_features")
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)

    def train_step(self, images, labels):
        logits = self.model(images)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()

    @torch.no_grad()
    def embed(self, images):
        self.model.eval()
        feats = self.model.encoder.forward_features(images)  # registered: runs the unit's hooks
        self.model.train()
        return feats.mean(dim=1)

    def tokens(self, images):
        encoder = self.model.encoder
        hidden = encoder.run_blocks(images)  # only its blocks, each a unit of its own
        n_params = sum(p.numel() for p in encoder.parameters())
        return encoder(images), hidden, n_params

    def fit(self, loader, epochs=1):
        for _ in range(epochs):
            for images, labels in loader:
                self.train_step(images, labels)
                self.embed(images)
                self.tokens(images)
