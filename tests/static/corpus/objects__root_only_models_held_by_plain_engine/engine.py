import torch
import torch.nn.functional as F


class GRPOEngine:
    """One GRPO step over a policy and a frozen reference model: a plain object, no module."""

    def __init__(self, model, ref_model, optimizer, config):
        self.model = model
        self.ref_model = ref_model
        self.optimizer = optimizer
        self.kl_coef = config["kl_coef"]

    def train_step(self, input_ids, advantages):
        logits = self.model(input_ids).logits
        with torch.no_grad():
            ref_logits = self.ref_model(input_ids).logits
        logp = F.log_softmax(logits, dim=-1)
        ref_logp = F.log_softmax(ref_logits, dim=-1)
        kl = (logp.exp() * (logp - ref_logp)).sum(-1).mean()
        loss = -(advantages * logp.max(-1).values.mean(-1)).mean() + self.kl_coef * kl
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()
