"""What only a GPU shows: ranks that share one, and whether the guard makes the GPU wait.

Run on NCCL ranks by tests/runtime/test_cuda.py, with the model and steps of flows.py.
"""

import contextlib
import warnings
from typing import Any, Dict, List

import torch

import fsdp_lint.runtime
from tests.runtime import flows


def shared_gpu(rank: int, _: Any) -> None:
    """No ``torch.cuda.set_device``: every rank shards onto cuda:0; the guard stops them at the first forward."""
    with fsdp_lint.runtime.guard(mode="raise"):
        model = flows.shard(flows.Transformer())
        model(flows.tokens(rank, 0)[:, :-1])


def _step(model: torch.nn.Module, optimizer: torch.optim.Optimizer, rank: int, step: int) -> None:
    batch = flows.tokens(rank, step)
    flows.lm_loss(model(batch[:, :-1]), batch).backward()  # no .item(): that would wait for the GPU
    optimizer.step()
    optimizer.zero_grad()


def synchronizations(rank: int, steps: int) -> Dict[str, List[str]]:
    """The synchronizing CUDA calls of ``steps`` training steps, plain and guarded (torch's sync debug mode).

    The guard hooks every unit's forward and backward; a hook that reads a tensor's value on the
    host (``.item()``, a comparison, ``nonzero``) would make each step wait for the GPU. Each mode
    is warmed up first: a guard's one-time checks at its first step are not per-step costs.
    """
    torch.manual_seed(0)
    model = flows.shard(flows.Transformer())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    found: Dict[str, List[str]] = {}
    for mode in (None, "raise"):
        with fsdp_lint.runtime.guard(mode=mode) if mode else contextlib.nullcontext():
            _step(model, optimizer, rank, 0)
            torch.cuda.synchronize()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                torch.cuda.set_sync_debug_mode("warn")
                try:
                    for step in range(1, steps + 1):
                        _step(model, optimizer, rank, step)
                finally:
                    torch.cuda.set_sync_debug_mode("default")
        found[mode or "plain"] = [_origin(w) for w in caught if "synchroniz" in str(w.message)]
    return found


def _origin(warning: warnings.WarningMessage) -> str:
    return f"{warning.filename}:{warning.lineno}: {str(warning.message)[:120]}"
