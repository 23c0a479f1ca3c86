import torch

from lm.steps import make_train_step


class Trainer:
    def __init__(self, model, config):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"])
        self.train_step = make_train_step(config["grad_clip"])

    def fit(self, loader):
        for batch in loader:
            loss = self.train_step(self.model, batch, self.optimizer)
            print(f"loss {loss.item():.4f}")
