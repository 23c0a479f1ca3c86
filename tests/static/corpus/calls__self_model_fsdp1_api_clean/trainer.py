import torch

from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp
from utils import clip_gradients, log_metrics


class Trainer:
    def __init__(self, max_grad_norm: float = 1.0):
        self.max_grad_norm = max_grad_norm
        self.mesh = init_distributed()
        self.model = Transformer(32000, 2048, 16)
        apply_fsdp(self.model, self.mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=2e-4)

    def step(self, step: int, tokens, labels):
        logits = self.model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
        loss.backward()
        grad_norm = clip_gradients(self.model, self.max_grad_norm)
        self.optimizer.step()
        self.optimizer.zero_grad()
        log_metrics(step, loss, grad_norm)


def main(loader):
    trainer = Trainer()
    for step, (tokens, labels) in enumerate(loader):
        trainer.step(step, tokens, labels)
