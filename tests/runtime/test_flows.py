"""Real FSDP2 trainer flows on 2 gloo ranks: the guard says nothing and changes no loss (flows.py)."""

import math
import os
import tempfile

import pytest

pytest.importorskip("torch")

from tests.runtime import flows  # noqa: E402
from tests.runtime.distributed import run_ranks  # noqa: E402


@pytest.fixture(scope="module")
def results():
    with tempfile.TemporaryDirectory() as tmp:
        per_rank = run_ranks(os.path.join(os.path.dirname(__file__), "flows.py"), "run_flows", tmp, timeout_s=300)
    for rank, result in enumerate(per_rank):
        assert result["ok"], f"rank {rank}: {result.get('traceback') or result}"
    return [result["value"] for result in per_rank]


@pytest.mark.parametrize("name", sorted(flows.FLOWS))
def test_flow_runs_guarded_with_the_plain_losses_bit_for_bit(results, name):
    for rank, by_flow in enumerate(results):
        entry = by_flow[name]
        assert entry["error"] is None and entry["warnings"] == [], (rank, entry)
        assert entry["guarded"] == entry["plain"], (rank, entry)
        assert all(math.isfinite(float.fromhex(loss)) for loss in entry["plain"]), entry
