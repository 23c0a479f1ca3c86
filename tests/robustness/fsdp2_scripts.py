"""Realistic FSDP2 training code, as single scripts and as a small package, with the findings
each must produce. The property tests mutate and reformat them; the equivalence tests lint them
with and without the byte prefilter."""

from __future__ import annotations

from typing import Dict

# A torchtitan-style script with three contract violations (optimizer before sharding, calling
# `forward` on the sharded root, saving the sharded state dict with torch.save).
TRAIN_SCRIPT = '''\
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = nn.Linear(dim, dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, x):
        return self.mlp(self.attn(x))


class Transformer(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.layers = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, dim)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def main():
    dist.init_process_group("nccl")
    mesh = init_device_mesh("cuda", (dist.get_world_size(),))
    model = Transformer(256, 4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16)
    for layer in model.layers:
        fully_shard(layer, mesh=mesh, mp_policy=policy)
    fully_shard(model, mesh=mesh, mp_policy=policy)
    for step in range(10):
        batch = torch.randn(8, 256)
        loss = model.forward(batch).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    torch.save(model.state_dict(), os.path.join("ckpt", "model.pt"))


if __name__ == "__main__":
    main()
'''

# The same training loop split the way real projects split it: sharding in one module, the
# optimizer in another, checkpointing in a third, re-exported through the package.
PROJECT: Dict[str, str] = {
    "trainer/__init__.py": "from .parallel import apply_fsdp\nfrom .optim import build_optimizer\n",
    "trainer/parallel.py": '''\
from torch.distributed.fsdp import fully_shard


def apply_fsdp(model, mesh):
    for block in model.layers:
        fully_shard(block, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model
''',
    "trainer/optim.py": '''\
import torch


def build_optimizer(model, lr):
    return torch.optim.AdamW(model.parameters(), lr=lr)
''',
    "trainer/checkpoint.py": '''\
import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)
''',
    "train.py": '''\
import torch
import torch.nn as nn

import trainer.parallel as par
from trainer import build_optimizer
from trainer.checkpoint import save_checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def main(mesh):
    model = Net()
    optimizer = build_optimizer(model, 1e-3)
    model = par.apply_fsdp(model, mesh)
    out = model.forward(torch.randn(2, 8))
    out.sum().backward()
    optimizer.step()
    save_checkpoint(model, "model.pt")
''',
    "tools/plot.py": "import matplotlib.pyplot as plt\n\n\ndef plot(values):\n    plt.plot(values)\n",
    "tools/data.py": "import torch\n\n\ndef batches(n):\n    return [torch.randn(2, 8) for _ in range(n)]\n",
}
