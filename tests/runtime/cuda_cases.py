"""What only a GPU shows: ranks that share one, and whether the guard makes the GPU wait.

Run on NCCL ranks by tests/runtime/test_cuda.py, with the model and steps of flows.py.
"""

import contextlib
import os
import traceback
from typing import Any, Dict, Optional

import torch

import fsdp_lint.runtime
from tests.runtime import flows


def shared_gpu(rank: int, _: Any) -> None:
    """Two ranks told the same ``LOCAL_RANK`` (a launcher that numbers nodes, not processes) share cuda:0.

    torch's DeviceMesh sets the device from ``LOCAL_RANK`` itself (2.11, 2.13) while nothing has
    touched CUDA, so ranks that each get their own ``LOCAL_RANK`` but no ``set_device`` do not
    collide where a mesh is made first; ranks that get the same one do, and NCCL's first
    all-gather fails or hangs. The guard stops every rank at
    the first forward, through the c10d store, before that all-gather.
    """
    os.environ["LOCAL_RANK"] = "0"
    with fsdp_lint.runtime.guard(mode="raise"):
        model = flows.shard(flows.Transformer())
        model(flows.tokens(rank, 0)[:, :-1])


def _step(model: torch.nn.Module, optimizer: torch.optim.Optimizer, batch: torch.Tensor) -> None:
    flows.lm_loss(model(batch[:, :-1]), batch).backward()  # no .item(): that would wait for the GPU
    optimizer.step()
    optimizer.zero_grad()


def synchronizations(rank: int, steps: int) -> Dict[str, Optional[str]]:
    """The first synchronizing CUDA call of ``steps`` training steps, plain and guarded, if any.

    The guard hooks every unit's forward and backward; a hook that reads a tensor's value on the
    host (``.item()``, a comparison, ``nonzero``) would make each step wait for the GPU. Torch's
    sync debug mode makes such a call raise. Each mode is warmed up first (a guard's one-time
    checks at its first step are not per-step costs), and the batches are on the GPU before.
    """
    torch.manual_seed(0)
    model = flows.shard(flows.Transformer())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    batches = [flows.tokens(rank, step) for step in range(steps + 1)]
    found: Dict[str, Optional[str]] = {}
    for mode in (None, "raise"):
        with fsdp_lint.runtime.guard(mode=mode) if mode else contextlib.nullcontext():
            _step(model, optimizer, batches[0])
            torch.cuda.synchronize()
            torch.cuda.set_sync_debug_mode("error")
            try:
                for batch in batches[1:]:
                    _step(model, optimizer, batch)
                found[mode or "plain"] = None
            except RuntimeError as exc:
                found[mode or "plain"] = "".join(traceback.format_exception(exc))[-1500:]
            finally:
                torch.cuda.set_sync_debug_mode("default")
    return found
