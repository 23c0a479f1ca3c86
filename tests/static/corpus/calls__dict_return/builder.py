import copy

import torch

from model import Transformer
from parallel import apply_fsdp


def build_components(cfg, mesh):
    model = Transformer(cfg["vocab_size"], cfg["dim"], cfg["n_layers"])
    ema = copy.deepcopy(model).requires_grad_(False)
    apply_fsdp(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    return {"model": model, "ema": ema, "optimizer": optimizer}
