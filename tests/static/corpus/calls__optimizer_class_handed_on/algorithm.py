import torch

from distributed import wrap_model
from model import PolicyModel
from optim import build_optimizer


class PolicyGradient:
    def __init__(self, mesh, lr: float = 1e-5, optimizer_cls=torch.optim.AdamW):
        self.actor = PolicyModel()
        self.optimizer = build_optimizer(self.actor, optimizer_cls, lr)  # expect: FSD202
        self.actor = wrap_model(self.actor, mesh)

    def learn(self, tokens, advantages):
        logits = self.actor(tokens)
        logp = torch.log_softmax(logits.float(), -1).gather(-1, tokens[..., None]).squeeze(-1)
        loss = -(logp * advantages).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()
