import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr: float = 3e-4, grad_clip: float = 1.0):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.95))
        self.grad_clip = grad_clip
        self.step = 0

    def train_step(self, batch):
        tokens = batch["input_ids"].cuda()
        logits = self.model(tokens[:, :-1])
        loss = F.cross_entropy(logits.flatten(0, 1).float(), tokens[:, 1:].flatten())
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.step += 1
        return loss.detach()

    def fit(self, loader, steps: int):
        for _, batch in zip(range(steps), loader):
            loss = self.train_step(batch)
            if self.step % 100 == 0:
                print(f"step {self.step} loss {loss.item():.4f}")
