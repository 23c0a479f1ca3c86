import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.nn.functional as F
from torch.distributed.checkpoint.state_dict import get_model_state_dict
from torch.distributed.fsdp import fully_shard

from dist_utils import init_distributed
from model import Transformer

mesh = init_distributed()
model = Transformer(32000, 1024, 12)
for layer in model.layers:
    fully_shard(layer, mesh=mesh)
fully_shard(model, mesh=mesh)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
data = torch.load("tokens.pt")
for step in range(0, data.shape[0] - 1025, 1024):
    tokens = data[step:step + 1024].view(1, -1).cuda()
    logits = model(tokens[:, :-1])
    F.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten()).backward()
    optimizer.step()
    optimizer.zero_grad()
os.makedirs("out", exist_ok=True)
state = model.state_dict()
if dist.get_rank() == 0:
    torch.save(state, "out/model.pt")  # expect: FSD301
