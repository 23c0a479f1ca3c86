import os

import torch
import torch.distributed as dist

from evaluation import evaluate, to_cpu


class Trainer:
    def __init__(self, model, optimizer, val_loader, output_dir: str, eval_every: int = 500, eval_batches: int = 50):
        self.model = model
        self.optimizer = optimizer
        self.val_loader = val_loader
        self.output_dir = output_dir
        self.eval_every = eval_every
        self.eval_batches = eval_batches
        self.rank = dist.get_rank()

    def train_step(self, tokens, labels):
        logits = self.model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss

    def fit(self, loader):
        for step, (tokens, labels) in enumerate(loader):
            loss = self.train_step(tokens, labels)
            if step % self.eval_every == 0:
                val_loss = evaluate(self.model, self.val_loader, self.eval_batches)
                if self.rank == 0:
                    print(f"step {step} loss {loss.item():.4f} val {val_loss:.4f}")

    def export_initial_weights(self, path: str):
        if self.rank == 0:
            torch.save(to_cpu(torch.load(path, map_location="cpu")), os.path.join(self.output_dir, "init.pt"))
