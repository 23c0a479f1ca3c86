import torch

from config import CurriculumConfig
from dist_utils import init_distributed
from model import Transformer
from parallel import apply_fsdp


def run_stage(model, optimizer, stage):
    for step in range(stage.steps):
        model(torch.randint(0, 32000, (4, 1024), device="cuda")).mean().backward()
        optimizer.step()
        optimizer.zero_grad()


def main(cfg: CurriculumConfig):
    mesh = init_distributed()
    model = Transformer(32000, 2048, 24)
    sharded = False
    for stage in cfg.stages:
        model.to(dtype=stage.dtype)  # expect: FSD204
        if not sharded:
            apply_fsdp(model, mesh, param_dtype=stage.dtype)
            sharded = True
        optimizer = torch.optim.AdamW(model.parameters(), lr=stage.lr)
        run_stage(model, optimizer, stage)
