import torch
import torch.nn.functional as F

from setup import build_generator


class Trainer:
    def __init__(self, cfg, mesh):
        self.cfg = cfg
        self.generator = build_generator(cfg, mesh)
        self.optimizer = torch.optim.AdamW(self.generator.parameters(), lr=cfg.lr)

    def train_step(self, latents):
        t = torch.rand(latents.shape[0], device=latents.device)
        noise = torch.randn_like(latents)
        noisy = (1 - t[:, None, None]) * latents + t[:, None, None] * noise
        pred_x0 = self.generator(noisy, t)
        loss = F.mse_loss(pred_x0.float(), latents.float())
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return loss.item()

    def fit(self, loader):
        for step, latents in enumerate(loader):
            loss = self.train_step(latents)
            if step % self.cfg.log_every == 0:
                print(f"step {step}: loss {loss:.4f}")
