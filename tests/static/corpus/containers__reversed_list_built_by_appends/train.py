import torch
from torch.distributed.device_mesh import init_device_mesh

from model import Net
from parallel import apply_fsdp


class Trainer:
    def __init__(self, lr: float = 1e-3):
        mesh = init_device_mesh("cuda", (torch.cuda.device_count(),))
        self.model = apply_fsdp(Net(), mesh)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)

    def step(self, batch):
        loss = self.model(batch).pow(2).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.item()


if __name__ == "__main__":
    trainer = Trainer()
    trainer.step(torch.randn(8, 16))
