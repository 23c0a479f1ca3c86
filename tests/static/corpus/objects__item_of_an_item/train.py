import torch

from dist_utils import init_distributed
from model import MultiTower
from parallel import apply_fsdp


def setup():
    mesh = init_distributed()
    model = MultiTower().cuda()
    apply_fsdp(model, mesh)
    return model


def train(batches):
    model = setup()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for x, y in batches:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
