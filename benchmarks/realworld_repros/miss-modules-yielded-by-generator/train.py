import torch

from app.models import ToyModel
from app.sharding import apply_fsdp2


def main():
    model = ToyModel()
    apply_fsdp2(model)
    optimizer = torch.optim.AdamW(model.denoiser().parameters(), lr=1e-4)
    loss = model.denoise(torch.randn(2, 8)).sum()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main()
