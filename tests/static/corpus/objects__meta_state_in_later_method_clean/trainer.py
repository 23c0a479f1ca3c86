import torch
import torch.nn.functional as F

from checkpoint import load_pretrained
from parallel import shard_and_allocate
from policy import Policy


class Trainer:
    def __init__(self, cfg, mesh):
        self.cfg = cfg
        self.policy = Policy(cfg)
        self.policy.model = shard_and_allocate(self.policy.model, mesh)
        load_pretrained(self.policy.model, cfg.pretrained)
        self.optimizer = torch.optim.AdamW(self.policy.model.parameters(), lr=cfg.lr)

    def train_step(self, tokens, labels):
        logits = self.policy.model(tokens) / self.policy.temperature
        loss = F.cross_entropy(logits.flatten(0, 1).float(), labels.flatten())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return loss.detach()

    def fit(self, loader):
        for step, (tokens, labels) in enumerate(loader):
            loss = self.train_step(tokens, labels)
            if step % 50 == 0:
                print(f"step {step}: loss {loss.item():.4f}")
