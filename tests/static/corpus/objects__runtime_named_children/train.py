import torch

from dist_utils import init_distributed
from parallel import apply_fsdp
from vlm import VisionLanguageModel


def main():
    mesh = init_distributed()
    model = apply_fsdp(VisionLanguageModel(), mesh, "qwen2_vl", torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    for _ in range(100):
        pixels = torch.randn(2, 3, 224, 224, device="cuda")
        loss = model.model.visual(pixels).float().pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
