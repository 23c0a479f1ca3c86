import torch
import torch.distributed as dist

from checkpoint import save_checkpoint, save_debug_copy


class Trainer:
    def __init__(self, model, optimizer, output_dir: str, ckpt_every: int = 1000):
        self.model = model
        self.optimizer = optimizer
        self.output_dir = output_dir
        self.ckpt_every = ckpt_every
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
            if self.rank == 0:
                print(f"step {step} loss {loss.item():.4f}")
                save_debug_copy(self.model, self.output_dir)
            if step > 0 and step % self.ckpt_every == 0 and self.rank == 0:
                save_checkpoint(self.model, self.optimizer, self.output_dir, step)  # expect: FSD206
