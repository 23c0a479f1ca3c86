import torch
import torch.distributed as dist

from checkpoint import save_optimizer_moments, save_weights
from setup import build


class Trainer:
    def __init__(self, out_dir: str):
        self.model, self.optimizer = build()
        self.out_dir = out_dir

    def fit(self, loader, save_every: int = 500):
        for step, (x, y) in enumerate(loader):
            loss = torch.nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            if step % save_every == 0:
                save_weights(self.model, step, f"{self.out_dir}/weights_{step}.pt")
        save_optimizer_moments(self.model, self.optimizer, f"{self.out_dir}/moments.pt")


if __name__ == "__main__":
    dist.init_process_group("nccl")
    Trainer("out").fit([])
