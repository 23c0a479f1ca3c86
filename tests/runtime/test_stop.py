"""A finding on one rank stops every rank within seconds, wherever the other ranks are (gloo, 2 ranks).

One launch per program: a stopped rank leaves the process group unusable. Each rank records
when it stopped; the figures are what the guard promises: the peer of a rank that stopped is
stopped in seconds, not at gloo's 30-minute timeout or the guard's own exchange bound.
"""

import json
import os
import re
import tempfile

import pytest

pytest.importorskip("torch")

from tests.runtime.distributed import run_ranks  # noqa: E402

STOPS = os.path.join(os.path.dirname(__file__), "stops.py")


def _run(name):
    with tempfile.TemporaryDirectory() as tmp:
        per_rank = run_ranks(STOPS, name, tmp, timeout_s=60)
        stopped = []
        for rank in range(2):
            path = os.path.join(tmp, f"stopped_{rank}.json")
            stopped.append(json.load(open(path)) if os.path.exists(path) else None)
    for rank, result in enumerate(per_rank):
        assert not result["hung"] and result["exitcode"] != 0 and stopped[rank], (rank, result, stopped)
    return per_rank, stopped


def test_a_rank_that_computes_outside_any_forward_is_stopped_within_seconds():
    """Rank 0 finds FSD302 and stops; rank 1 is in a 30 s loop with no FSDP call and no collective."""
    per_rank, stopped = _run("rank0_loads_plain_rank1_computes")
    assert stopped[0]["code"] == "FSD302" and "[rank 0]" in stopped[0]["message"]
    assert stopped[1]["code"] == "FSD302" and "[rank 1, found on rank 0]" in stopped[1]["message"], stopped[1]
    assert stopped[1]["time"] - stopped[0]["time"] < 5.0, stopped


def test_a_collective_on_one_rank_before_the_first_forward_stops_both_without_waiting_the_bound():
    """Rank 0 broadcasts alone; rank 1 waits at the first forward, sees rank 0 blocked, and stops."""
    per_rank, stopped = _run("rank0_collective_before_first_forward")
    assert stopped[1]["code"] == "FSD206", stopped[1]
    assert re.search(r"rank\(s\) \[0\] did not come \(rank 0: it is blocked in a collective at \S*stops.py:\d+ in "
                     r"rank0_collective_before_first_forward: dist.broadcast", stopped[1]["message"]), stopped[1]
    # FSDP_LINT_RUNTIME_TIMEOUT is 10 s in these tests: the evidence, not the bound, ended the wait.
    assert stopped[1]["time"] - stopped[1]["started"] < 8.0, stopped[1]
    assert stopped[0]["time"] - stopped[1]["time"] < 5.0, stopped


def test_a_full_state_dict_on_one_rank_is_reported_on_every_rank():
    """Rank 0 gathers alone; rank 1 went on into the next forward and waits in its all-gather."""
    per_rank, stopped = _run("rank0_full_state_dict_rank1_trains")
    assert stopped[0]["code"] == stopped[1]["code"] == "FSD206", stopped
    assert re.search(r"get_model_state_dict\(\) communicates with ranks \[0, 1\], but rank\(s\) \[1\] did not come "
                     r"\(rank 1: it is blocked in a collective at \S*scenarios.py:\d+ in train", stopped[0]["message"])
    assert "[rank 1, found on rank 0]" in stopped[1]["message"], stopped[1]
    assert stopped[0]["time"] - stopped[0]["started"] < 8.0 and abs(stopped[1]["time"] - stopped[0]["time"]) < 5.0
