"""Source files the ecosystem tests lint: each finding sits on a known line."""

from __future__ import annotations

# FSD202 at 5, FSD201 at 9 and 10 (fixable), FSD301 at 11.
TRAIN = """\
import torch
from torch.distributed.fsdp import fully_shard

model = Transformer()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
for layer in model.layers:
    fully_shard(layer)
fully_shard(model)
out = model.forward(x)  # keep this comment
y = model.layers[0].forward(out, "a,b:c%")
torch.save(model.state_dict(), "ckpt.pt")
"""

# FSD101 (a warning) at 5.
ROOT_ONLY = """\
from transformers import AutoModelForCausalLM
from torch.distributed.fsdp import fully_shard

model = AutoModelForCausalLM.from_pretrained("gpt2")
fully_shard(model)
"""

CLEAN = """\
from torch.distributed.fsdp import fully_shard

model = Transformer()
for layer in model.layers:
    fully_shard(layer)
fully_shard(model)
out = model(x)
"""
