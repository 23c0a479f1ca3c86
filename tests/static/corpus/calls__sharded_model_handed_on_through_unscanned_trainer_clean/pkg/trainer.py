import torch

from pkg.checkpointer import Checkpointer


class Trainer:
    def __init__(self, config):
        self.config = config
        self.checkpointer = Checkpointer(config["sharded_checkpoint"])

    def train(self, model):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for iteration in range(self.config["max_iter"]):
            loss = model.training_step(torch.randn(4, 8))
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        self.checkpointer.save(model, self.config["max_iter"])
