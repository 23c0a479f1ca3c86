import torch

from checkpoint import save_checkpoint
from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp


class Trainer:
    def __init__(self, folder: str, save_every: int = 500):
        self.folder = folder
        self.save_every = save_every
        mesh = init_distributed()
        self.model = apply_fsdp(Transformer(32000, 2048, 24), mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=3e-4)

    def fit(self, loader):
        for step, tokens in enumerate(loader):
            self.model(tokens).mean().backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            if step % self.save_every == 0:
                save_checkpoint(model=self.model, optimizer=self.optimizer, step=step, folder=self.folder)


if __name__ == "__main__":
    Trainer("/checkpoints").fit(make_loader())
