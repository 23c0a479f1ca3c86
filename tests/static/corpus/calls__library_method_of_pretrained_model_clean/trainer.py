import torch

from setup_model import build_policy


class Trainer:
    def __init__(self, config):
        self.policy = build_policy(config["model_path"], config.get("gradient_checkpointing", True))
        self.optimizer = torch.optim.AdamW(self.policy.parameters(), lr=config["lr"])

    def step(self, input_ids, labels):
        loss = self.policy(input_ids=input_ids, labels=labels).loss
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()


def main(config, loader):
    trainer = Trainer(config)
    for input_ids, labels in loader:
        trainer.step(input_ids, labels)
