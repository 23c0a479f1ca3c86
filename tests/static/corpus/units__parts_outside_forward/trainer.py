import torch
import torch.nn.functional as F

from encoder import Classifier
from parallel import shard_classifier


class Trainer:
    def __init__(self, lr=1e-3):
        self.model = shard_classifier(Classifier())
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
        feats = self.model.encoder.forward_features(images)  # expect: FSD201
        self.model.train()
        return feats.mean(dim=1)

    def tokens(self, images):
        encoder = self.model.encoder
        return encoder.patch_embed(images)  # expect: FSD201

    def fit(self, loader, epochs=1):
        for _ in range(epochs):
            for images, labels in loader:
                self.train_step(images, labels)
                self.embed(images)
                self.tokens(images)
