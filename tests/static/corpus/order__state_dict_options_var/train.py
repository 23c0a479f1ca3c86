import torch

from checkpoint import export_for_inference
from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp


def main(loader, out_dir: str):
    mesh = init_distributed()
    model = apply_fsdp(Transformer(32000, 2048, 24), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for tokens in loader:
        model(tokens).float().mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    export_for_inference(model, out_dir)
