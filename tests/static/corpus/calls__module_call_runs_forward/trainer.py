import torch
import torch.nn.functional as F

from models import Contrastive
from parallel import shard_method


def info_nce(z1, z2, temperature=0.1):
    z1, z2 = F.normalize(z1, dim=-1), F.normalize(z2, dim=-1)
    logits = z1 @ z2.t() / temperature
    return F.cross_entropy(logits, torch.arange(len(z1)))


class Trainer:
    def __init__(self, mesh=None, lr=1e-3):
        self.model = shard_method(Contrastive(), mesh=mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)

    def train_step(self, batch):
        view1, view2 = batch
        loss = info_nce(self.model(view1), self.model(view2))
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()

    def fit(self, loader, epochs=1):
        for _ in range(epochs):
            for batch in loader:
                self.train_step(batch)
