import torch
import torch.nn.functional as F

from wan.model import VideoTransformer
from wan.configure import configure_model
from wan.sharding import shard_model


class Trainer:
    def __init__(self, lr: float):
        transformer = VideoTransformer()
        self.transformer = configure_model(transformer, shard_fn=shard_model, device="cuda", dtype=torch.bfloat16)
        self.optimizer = torch.optim.AdamW(self.transformer.parameters(), lr=lr)

    def step(self, patches, target):
        pred = self.transformer.forward(patches)  # expect: FSD201
        loss = F.mse_loss(pred.float(), target)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()


def main(loader):
    trainer = Trainer(lr=1e-4)
    for patches, target in loader:
        trainer.step(patches, target)
