import torch


class Trainer:
    def __init__(self, model, optimizer, max_norm: float = 1.0):
        self.model = model
        self.optimizer = optimizer
        self.max_norm = max_norm

    def train_step(self, radar, target):
        loss = torch.nn.functional.cross_entropy(self.model(radar), target)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return loss.detach()

    def fit(self, loader):
        for radar, target in loader:
            self.train_step(radar, target)
