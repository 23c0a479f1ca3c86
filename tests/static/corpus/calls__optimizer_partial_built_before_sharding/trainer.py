import torch


class Trainer:
    """Mixed-precision steps through the AMP scaler, with clipping."""

    def __init__(self, model, optimizer, max_norm: float = 1.0):
        self.model = model
        self.optimizer = optimizer
        self.max_norm = max_norm
        self.scaler = torch.amp.GradScaler("cuda")

    def train_step(self, inputs, targets):
        loss = torch.nn.functional.mse_loss(self.model(inputs), targets)
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.optimizer.zero_grad(set_to_none=True)
        return loss.detach()

    def fit(self, loader):
        for inputs, targets in loader:
            self.train_step(inputs, targets)
