import torch.nn as nn


def make_tied_pair(dim):
    enc = nn.Linear(dim, dim, bias=False)
    dec = nn.Linear(dim, dim, bias=False)
    dec.weight = enc.weight
    return enc, dec


class Parent(nn.Module):
    def __init__(self, enc, dec):
        super().__init__()
        self.encoder = enc
        self.decoder = dec

    def forward(self, x):
        return self.decoder(self.encoder(x))
