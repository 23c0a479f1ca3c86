import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr: float):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def step(self, x, y):
        loss = F.cross_entropy(self.model(x.to(torch.bfloat16)).float(), y)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()
