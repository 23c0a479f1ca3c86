"""Shards a model and looks at its parameters; the training below the exit is kept for later."""
import sys

import torch
from torch.distributed.fsdp import fully_shard

from model import build_model, evaluate

model = build_model(16, 4)
for layer in model:
    fully_shard(layer)
fully_shard(model)
model.to_empty(device="cuda")
for param in model.parameters():
    print(type(param), param.shape)

sys.exit()

optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
print(evaluate(model, torch.randn(2, 16)))
loss = model(torch.randn(2, 16)).sum()
loss.backward()
optimizer.step()
