import torch


class Trainer:
    def __init__(self, model, optimizer) -> None:
        self.model = model
        self.optimizer = optimizer

    def step(self, x: torch.Tensor) -> float:
        loss = self.model.forward(x).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()
