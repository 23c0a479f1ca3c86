import torch

from parallel import apply_fsdp


class FSDPTrainer:
    def __init__(self, model, mesh, lr: float = 3e-4):
        self.model = apply_fsdp(model, mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)

    def train(self, loader):
        for tokens in loader:
            self.model(tokens).float().mean().backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
