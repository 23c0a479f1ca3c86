import torch

from model import Denoiser
from optim import build_optimizer
from parallel import apply_fsdp


def main(width=64, depth=4, steps=10):
    model = Denoiser(width, depth)
    optimizer = build_optimizer(model.parameters(), lr=3e-4)  # expect: FSD202
    apply_fsdp(model)
    for _ in range(steps):
        loss = model(torch.randn(8, width)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
