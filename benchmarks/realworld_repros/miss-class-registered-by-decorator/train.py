import torch

import app.models  # noqa: F401  (registers ToyModel)
from app.registry import build_model
from app.sharding import apply_fsdp2


def main():
    model = build_model({"name": "toy"})
    apply_fsdp2(model)
    optimizer = torch.optim.AdamW(model.denoiser().parameters(), lr=1e-4)
    loss = model.denoise(torch.randn(2, 8)).sum()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main()
