import torch
import torch.distributed as dist

from setup import build


class Trainer:
    """Owns the model and its optimizer; `save` keeps what a resume needs."""

    def __init__(self, out_dir: str):
        self.model, self.optimizer = build()
        self.out_dir = out_dir
        self.step = 0

    def train_step(self, x, y):
        loss = torch.nn.functional.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        self.step += 1

    def save_optimizer(self):
        if dist.get_rank() == 0:
            torch.save({"optimizer": self.optimizer.state_dict(), "step": self.step}, f"{self.out_dir}/optim.pt")  # expect: FSD301
