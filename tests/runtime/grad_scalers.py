"""Runs on each of 2 ranks (`tests/runtime/test_grad_scalers.py`): one step of each gradient
scaler on a real `fully_shard` model, with an overflow in one rank's shard of one gradient."""

from typing import Dict

import torch
from torch.distributed.fsdp import fully_shard
from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler


def overflow_on_one_rank(rank: int, _payload: object) -> Dict[str, Dict[str, object]]:
    return {kind: _one_step(rank, kind) for kind in ("sharded", "amp")}


def _one_step(rank: int, scaler_kind: str) -> Dict[str, object]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 8))
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = ShardedGradScaler(device="cpu") if scaler_kind == "sharded" else torch.amp.GradScaler("cpu")
    before = [p.full_tensor().clone() for p in model.parameters()]
    scaler.scale(model(torch.ones(4, 8)).sum()).backward()
    if rank == 1:
        next(iter(model.parameters())).grad.to_local().view(-1)[0] = float("inf")
    scaler.step(optimizer)
    scaler.update()
    after = [p.full_tensor() for p in model.parameters()]
    return {"stepped": any(not torch.equal(a, b) for a, b in zip(before, after)), "scale": scaler.get_scale()}
