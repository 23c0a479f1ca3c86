import torch
import torch.nn.functional as F

from distill import TeacherProjection
from model import Student
from parallel import shard_student


class Trainer:
    def __init__(self, dim: int, fsdp: bool):
        self.model = shard_student(Student(dim, 4)) if fsdp else Student(dim, 4)
        self.teacher = TeacherProjection(dim, shard=fsdp)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=1e-4)

    def step(self, x):
        target = self.teacher(x)
        loss = F.mse_loss(self.model(x), target)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()


def main(loader, fsdp: bool = True):
    trainer = Trainer(64, fsdp)  # expect: FSD103
    for x in loader:
        trainer.step(x)
