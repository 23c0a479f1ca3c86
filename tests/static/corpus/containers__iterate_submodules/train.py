import torch

from dist_utils import init_distributed
from parallel import apply_fsdp
from vlm import VisionLanguageModel


def main():
    mesh = init_distributed()
    model = apply_fsdp(VisionLanguageModel(), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    return model, optimizer
