import torch

from dist_utils import init_distributed
from loop import TrainLoop
from model import Transformer
from parallel import apply_fsdp


def main(dataloader, output_dir: str):
    mesh = init_distributed()
    model = apply_fsdp(Transformer(32000, 2048, 24), mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    loop = TrainLoop(model=model, optimizer=optimizer, output_dir=output_dir)
    loop.fit(dataloader)
