import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel

from checkpointing import save_weights


class Denoiser(nn.Module):
    def __init__(self, channels=32):
        super().__init__()
        self.encode = nn.Conv2d(3, channels, 3, padding=1)
        self.mix = nn.Conv2d(channels, channels, 3, padding=1)
        self.decode = nn.Conv2d(channels, 3, 3, padding=1)

    def forward(self, x):
        return x - self.decode(torch.relu(self.mix(torch.relu(self.encode(x)))))


def wrap(model, shard: bool):
    """Data parallel by default; sharded (one unit) when the model's memory asks for it."""
    if shard:
        return fully_shard(model)
    return DistributedDataParallel(model)


def main(shard=False, steps=100):
    model = wrap(Denoiser(), shard)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    for step in range(steps):
        noisy = torch.randn(4, 3, 32, 32)
        loss = model(noisy).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    save_weights(model, "denoiser.pt", dist.get_rank())
