from dataclasses import dataclass

import torch
import torch.nn.functional as F

from builder import load_model_and_tokenizer
from dist_utils import init_distributed
from parallel import apply_fsdp


@dataclass
class Config:
    tokenizer_path: str = "meta-llama/Llama-3.2-1B"
    dim: int = 2048
    n_layers: int = 16
    lr: float = 3e-4


def main(loader):
    cfg = Config()
    mesh = init_distributed()
    model, tokenizer = load_model_and_tokenizer(cfg)
    apply_fsdp(model, mesh)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for batch in loader:
        ids = tokenizer(batch["text"], return_tensors="pt").input_ids.cuda()
        logits = model(ids[:, :-1])
        F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten()).backward()
        optimizer.step()
        optimizer.zero_grad()
