import torch
from torch import nn

from encoder import Encoder


class MaskedModeling(nn.Module):
    """Trains the encoder's parts one by one; encodes with `forward_features` in eval."""

    def __init__(self, dim=16):
        super().__init__()
        self.encoder = Encoder(dim)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.decoder = nn.Linear(dim, dim)

    def forward(self, x, mask):
        if not self.training:
            return self.encoder.forward_features(x)  # expect: FSD201
        enc = self.encoder
        h = enc.patch_embed(x)  # expect: FSD201
        h = h * (1 - mask) + self.mask_token * mask
        h = enc.norm(enc.blocks(h + enc.pos_embed))
        return self.decoder(h)
