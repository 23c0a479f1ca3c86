import torch
from torch import nn
from torch.distributed.fsdp import fully_shard

from checkpoint import save_checkpoint


class Encoder(nn.Module):
    def __init__(self, width=32, depth=4):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])

    def forward(self, x):
        for block in self.blocks:
            x = torch.relu(block(x))
        return x


class Probe(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        return self.head(x.detach())


def setup():
    encoder = Encoder()
    for block in encoder.blocks:
        fully_shard(block)
    fully_shard(encoder)
    return encoder


def main(steps=100):
    encoder = setup()
    probe = Probe()
    optimizer = torch.optim.AdamW(encoder.parameters(), lr=1e-4)
    for step in range(steps):
        features = encoder(torch.randn(8, 32))
        loss = features.pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        probe(features)
    save_checkpoint("encoder.pt", encoder, optimizer)
