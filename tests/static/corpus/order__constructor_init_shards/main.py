import torch

from dist_utils import init_distributed
from model import Transformer
from trainer import FSDPTrainer


def sanity_check(model):
    with torch.no_grad():
        logits = model.forward(torch.zeros(1, 8, dtype=torch.long, device="cuda"))  # expect: FSD201
    assert torch.isfinite(logits).all()


def main(loader):
    mesh = init_distributed()
    model = Transformer(32000, 1024, 12).cuda()
    trainer = FSDPTrainer(model, mesh)
    sanity_check(model)
    trainer.train(loader)
