import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.init_tensors()

    def init_tensors(self):
        nn.init.normal_(self.proj.weight)
        nn.init.zeros_(self.proj.bias)

    def forward(self, x):
        return self.proj(x)


class LM(nn.Module):
    def __init__(self, with_vision):
        super().__init__()
        self.tok = nn.Embedding(16, 8)
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])
        if with_vision:
            self.vision = Encoder()

    def forward(self, t, img=None):
        h = self.tok(t)
        if img is not None:
            h = h + self.vision(img)
        for layer in self.layers:
            h = layer(h)
        return h

    def init_weights(self):
        nn.init.normal_(self.tok.weight)
        for layer in self.layers:
            nn.init.normal_(layer.weight)
            nn.init.zeros_(layer.bias)
