import torch


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def train_step(self, inputs, targets):
        loss = torch.nn.functional.mse_loss(self.model(inputs), targets)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return loss.detach()

    def fit(self, loader):
        for inputs, targets in loader:
            self.train_step(inputs, targets)
