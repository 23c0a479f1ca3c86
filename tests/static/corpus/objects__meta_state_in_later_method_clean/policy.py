import torch
from torch import nn

from model import Transformer


class Policy(nn.Module):
    """The language model behind a value head; built on the meta device so that no rank holds
    the full model before it is sharded."""

    def __init__(self, cfg):
        super().__init__()
        with torch.device("meta"):
            self.model = Transformer(cfg.vocab_size, cfg.dim, cfg.n_layers)
        self.temperature = cfg.temperature
