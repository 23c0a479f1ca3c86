import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict

from builder import build_components
from dist_utils import init_distributed

CONFIG = {"vocab_size": 32000, "dim": 1024, "n_layers": 12, "lr": 3e-4}


def main(loader, out_dir: str):
    mesh = init_distributed()
    parts = build_components(CONFIG, mesh)
    model, optimizer = parts["model"], parts["optimizer"]
    for tokens in loader:
        model(tokens).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    model_sd, optim_sd = get_state_dict(model, optimizer)
    dcp.save({"model": model_sd, "optimizer": optim_sd}, checkpoint_id=out_dir)
    torch.save(parts["model"].state_dict(), f"{out_dir}/weights.pt")  # expect: FSD301
