import torch


class Trainer:
    def __init__(self, model, optimizer, checkpointer, max_grad_norm: float = 1.0):
        self.model = model
        self.optimizer = optimizer
        self.checkpointer = checkpointer
        self.max_grad_norm = max_grad_norm

    def train_step(self, tokens, labels):
        logits = self.model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    def save_checkpoint(self, step: int):
        self.checkpointer.save(self.model, self.optimizer, step)

    def fit(self, loader):
        for step, (tokens, labels) in enumerate(loader):
            loss = self.train_step(tokens, labels)
            if step % 100 == 0:
                print(f"step {step} loss {loss.item():.4f}")
            if self.checkpointer.due(step):
                self.save_checkpoint(step)
