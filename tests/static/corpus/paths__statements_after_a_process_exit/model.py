import torch
from torch import nn


def build_model(width, depth):
    with torch.device("meta"):
        return nn.Sequential(*[nn.Linear(width, width) for _ in range(depth)])


def evaluate(model, batch):
    return model(batch).mean()  # expect: FSD105
