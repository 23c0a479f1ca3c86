"""The guard on GPUs with NCCL, each rank mapped to its own device as torchrun users do.

Skipped without CUDA (CI has none); run where a GPU is lent: every flow of flows.py plain and
guarded with the same losses bit for bit, ranks that share one GPU stopped by FSD106 before
NCCL's first collective, and no guard hook that makes a training step wait for the GPU.
"""

import math
import os
import tempfile

import pytest

torch = pytest.importorskip("torch")
import torch.distributed as dist  # noqa: E402

pytestmark = pytest.mark.skipif(not (torch.cuda.is_available() and dist.is_nccl_available()),
                                reason="needs CUDA and NCCL")

from tests.runtime import flows  # noqa: E402
from tests.runtime.distributed import run_ranks  # noqa: E402

HERE = os.path.dirname(__file__)


def _world() -> int:
    return min(2, torch.cuda.device_count())


def _values(per_rank):
    for rank, result in enumerate(per_rank):
        assert result["ok"], f"rank {rank}: {result.get('traceback') or result}"
    return [result["value"] for result in per_rank]


def test_flows_on_nccl_run_guarded_with_the_plain_losses_bit_for_bit():
    env = {"CUBLAS_WORKSPACE_CONFIG": ":4096:8"}
    with tempfile.TemporaryDirectory() as tmp:
        per_rank = _values(run_ranks(os.path.join(HERE, "flows.py"), "run_flows", tmp, timeout_s=300, env=env,
                                     world=_world(), backend="nccl", map_device=True))
    for rank, by_flow in enumerate(per_rank):
        assert sorted(by_flow) == sorted(flows.FLOWS)
        for name, entry in by_flow.items():
            assert entry["error"] is None and entry["warnings"] == [], (rank, name, entry)
            assert entry["guarded"] == entry["plain"], (rank, name, entry)
            assert all(math.isfinite(float.fromhex(loss)) for loss in entry["plain"]), (name, entry)


def test_ranks_sharing_one_gpu_are_stopped_by_fsd106_before_the_first_all_gather():
    per_rank = run_ranks(os.path.join(HERE, "cuda_cases.py"), "shared_gpu", timeout_s=120, world=2,
                         backend="nccl", map_device=False)
    for rank, result in enumerate(per_rank):
        assert not result["hung"], (rank, result)
        assert result["type"] == "FSDPContractError", (rank, result)
        assert "FSD106" in result["message"] and "cuda:0" in result["message"], (rank, result["message"])


def test_guard_adds_no_synchronizing_cuda_call_to_a_training_step():
    per_rank = _values(run_ranks(os.path.join(HERE, "cuda_cases.py"), "synchronizations", 3, timeout_s=180,
                                 world=_world(), backend="nccl", map_device=True))
    for found in per_rank:
        assert found == {"plain": None, "raise": None}, found
