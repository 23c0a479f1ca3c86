import torch
import torch.distributed as dist
from hydra.utils import instantiate

from calibrate import calibrate
from model import Classifier
from parallel import setup
from trainer import Trainer


def main(cfg):
    dist.init_process_group("gloo")
    model = setup(Classifier(cfg.dim, cfg.n_blocks, instantiate(cfg.head)))
    trainer = Trainer(model, lr=cfg.lr)
    for _ in range(cfg.steps):
        trainer.step(torch.randn(8, cfg.dim), torch.randint(0, cfg.n_classes, (8,)))
    calibrate(model)
    for _ in range(cfg.steps):
        trainer.step(torch.randn(8, cfg.dim), torch.randint(0, cfg.n_classes, (8,)))
