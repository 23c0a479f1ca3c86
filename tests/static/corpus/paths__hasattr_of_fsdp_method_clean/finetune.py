"""Fine-tunes a small flow with FSDP2 only, reusing the trainer's accumulation context."""

import torch
from torch.distributed.fsdp import fully_shard

from model import Flow
from sync import sync_ctx


def finetune(batches, accumulate: int = 2):
    model = Flow(dim=64, depth=2)
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, x in enumerate(batches):
        last = (step + 1) % accumulate == 0
        with sync_ctx(model, sync=last):
            loss = (model(x) - x).pow(2).mean()
            loss.backward()
        if last:
            fsdp_version = 2 if hasattr(model, "set_requires_gradient_sync") else 1
            if fsdp_version == 1:
                model.clip_grad_norm_(1.0)
            else:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
