import torch
import torch.distributed as dist

from model import build_denoiser
from sampling import generate


def main(loader, epochs: int = 10):
    dist.init_process_group("nccl")
    model = build_denoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    for epoch in range(epochs):
        for x0, t in loader:
            noise = torch.randn_like(x0)
            loss = ((model(x0 + t * noise, t) - noise) ** 2).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        with torch.no_grad():
            generate(model, steps=50)
