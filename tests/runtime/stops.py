"""Programs in which one rank finds a violation and the others are elsewhere: every rank must stop.

Each function runs once per launch (a rank that stops leaves the process group unusable). A
rank records when it stopped (``stopped_<rank>.json`` in the payload directory) before the
error goes on, so that the test can measure how long after the finding the other rank stopped.
"""

import json
import os
import time
from typing import Any, Callable

import torch
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

import fsdp_lint.runtime
from tests.runtime.scenarios import batch, build, train


def _timed(body: Callable[[int, str], Any]) -> Callable[[int, str], Any]:
    def run(rank: int, tmp: str) -> Any:
        fsdp_lint.runtime.enable(mode="raise")
        started = time.time()
        try:
            return body(rank, tmp)
        except BaseException as exc:
            with open(os.path.join(tmp, f"stopped_{rank}.json"), "w") as handle:
                json.dump({"started": started, "time": time.time(), "type": type(exc).__name__,
                           "code": getattr(exc, "code", None), "message": str(exc)}, handle)
            raise

    run.__name__ = body.__name__
    return run


def _compute(seconds: float) -> None:
    """Work that never touches FSDP or a collective (an evaluation loop, data preparation)."""
    x = torch.randn(64, 64)
    deadline = time.time() + seconds
    while time.time() < deadline:
        x = torch.tanh(x @ x.T / 64)


@_timed
def rank0_loads_plain_rank1_computes(rank: int, tmp: str) -> None:
    """Rank 0 alone loads a plain state dict (FSD302) while rank 1 computes without any collective."""
    model = build()
    train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=1)
    if rank == 0:
        model.load_state_dict(build(shard=False).state_dict())
    _compute(30.0)
    dist.barrier()


@_timed
def rank0_loads_plain_rank1_all_reduces(rank: int, tmp: str) -> None:
    """Rank 0 alone loads a plain state dict while rank 1 waits in a collective of its own code."""
    model = build()
    losses = train(model, torch.optim.SGD(model.parameters(), lr=0.1), rank, steps=1)
    if rank == 0:
        model.load_state_dict(build(shard=False).state_dict())
    dist.all_reduce(torch.tensor(losses))


@_timed
def rank0_collective_before_first_forward(rank: int, tmp: str) -> None:
    """Rank 0 alone broadcasts (plain c10d, no guard entry) while rank 1 starts training."""
    model = build()
    if rank == 0:
        dist.broadcast(torch.zeros(4), src=0)
    model(batch(rank))


@_timed
def rank0_full_state_dict_rank1_trains(rank: int, tmp: str) -> None:
    """Rank 0 alone gathers a full state dict while rank 1 goes on into the next forward's all-gather."""
    model = build()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, rank, steps=1)
    if rank == 0:
        get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))  # noqa: FSD206 (intentional violation)
    train(model, optimizer, rank, steps=2)


SCRIPT_HEAD = """
import os, sys, torch, torch.distributed as dist
sys.path.insert(0, {root!r})
import fsdp_lint.runtime
from tests.runtime.scenarios import build, batch, train
"""


def script(body: str, root: str, enable: str = "fsdp_lint.runtime.enable()") -> str:
    """A user's training script: the guard enabled in it (or by the CLI when ``enable`` is empty)."""
    return SCRIPT_HEAD.format(root=root) + (enable + "\n" if enable else "") + body


FORWARD_BYPASS = """
dist.init_process_group("gloo")
model = build()
model(batch(dist.get_rank()))
loss = model.forward(batch(dist.get_rank())).sum()
"""

SUBMODULE_OF_BLOCK = """
dist.init_process_group("gloo")
model = build()
model(batch(dist.get_rank())).sum().backward()
model.layers[1].fc1(torch.randn(2, 16))
"""

PEER_STOP = """
dist.init_process_group("gloo")
model = build()
losses = train(model, torch.optim.SGD(model.parameters(), lr=0.1), dist.get_rank(), steps=1)
if dist.get_rank() == 0:
    model.load_state_dict(build(shard=False).state_dict())
dist.all_reduce(torch.tensor(losses))
"""
