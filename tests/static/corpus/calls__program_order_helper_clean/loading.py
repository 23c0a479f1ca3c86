import torch

from model import Transformer


def load_pretrained(path: str):
    model = Transformer(32000, 2048, 24)
    model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return model
