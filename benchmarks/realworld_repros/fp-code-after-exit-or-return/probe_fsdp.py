import sys

import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard

with torch.device("meta"):
    model = nn.Sequential(*[nn.Linear(8, 8) for _ in range(4)])
for layer in model:
    fully_shard(layer)
fully_shard(model)
model.to_empty(device="cuda")
# a playground: inspect the sharded parameters, then stop
for param in model.parameters():
    print(type(param), param.shape)

sys.exit()

# never runs: kept below for later experiments
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss = model(torch.randn(2, 8)).sum()
loss.backward()
optimizer.step()
