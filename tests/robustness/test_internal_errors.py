"""A crash of one rule on one file is reported (the rule, the file, where to file the bug), the other
rules and files still run, and the exit status is 2: in one process, in forked workers, and on a
second run with a cache (a run with an internal error is never stored)."""

from __future__ import annotations

import pytest

from tests.static.helpers import run_subprocess, write_tree

TRAIN = (
    "import torch\nfrom torch.distributed.fsdp import fully_shard\n"
    "fully_shard(model)\nmodel.forward(x)\ntorch.save(model.state_dict(), 'm.pt')\n"
)
# FSD201 crashes in fragile.py only; FSD301 must still report there, FSD201 in sturdy.py.
PRELUDE = """
from fsdp_lint.engine import parallel
from fsdp_lint.engine.registry import all_rules
parallel.MIN_LINES = 0
rule = all_rules()["FSD201"]
original = rule.on_call
def on_call(self, node, flow):
    if node.root().file.endswith("fragile.py"):
        raise ZeroDivisionError("boom")
    return original(self, node, flow)
rule.on_call = on_call
"""


@pytest.mark.parametrize("flags", [["--jobs", "1", "--no-cache"], ["--jobs", "2", "--no-cache"], ["--cache-dir", ".cache"]])
def test_a_crashing_rule_is_reported_and_the_rest_still_runs(tmp_path, flags):
    write_tree(tmp_path, {"fragile.py": TRAIN, "sturdy.py": TRAIN})
    for _ in range(2):
        run = run_subprocess(["--format", "concise", *flags, "."], cwd=str(tmp_path), prelude=PRELUDE)
        assert run.code == 2, run.err
        assert "Traceback" not in run.err
        assert "fragile.py: internal error in rule FSD201" in run.err and "ZeroDivisionError: boom" in run.err
        assert "please report it" in run.err
        assert any(line.startswith("fragile.py:5:") and "FSD301" in line for line in run.out.splitlines())
        assert "sturdy.py:4:1: FSD201" in run.out


DCP_TRAIN = (
    "import torch.distributed as dist\nimport torch.distributed.checkpoint as dcp\n"
    "def save(state):\n    if dist.get_rank() == 0:\n        dcp.save(state, checkpoint_id='c')\n"
)
# The FSD206 screen crashes on fragile.py, the byte scan on broken_scan.py: each file is kept
# and analysed as if the screen or the scan had said yes, so no finding is lost.
SCAN_PRELUDE = """
from fsdp_lint.engine import parallel, prefilter
from fsdp_lint.engine.registry import all_rules
parallel.MIN_BYTES = 0
rule = all_rules()["FSD206"]
original_screen = rule.may_fire_in.__func__
def may_fire_in(cls, file):
    if b"# fragile" in file.data:
        raise ZeroDivisionError("screen")
    return original_screen(cls, file)
rule.may_fire_in = classmethod(may_fire_in)
original_scan = prefilter.scan_file
def scan_file(path, data, *args, **kwargs):
    if path.endswith("broken_scan.py"):
        raise KeyError("scan")
    return original_scan(path, data, *args, **kwargs)
prefilter.scan_file = scan_file
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_crashing_screen_or_scan_keeps_the_file_and_is_reported(tmp_path, jobs):
    write_tree(tmp_path, {"fragile.py": DCP_TRAIN + "# fragile\n", "broken_scan.py": TRAIN, "sturdy.py": TRAIN})
    run = run_subprocess(["--format", "concise", "--no-cache", "--jobs", jobs, "."], cwd=str(tmp_path), prelude=SCAN_PRELUDE)
    assert run.code == 2, run.err
    assert "Traceback" not in run.err
    assert "fragile.py: internal error in the screen of rule FSD206" in run.err and "ZeroDivisionError: screen" in run.err
    assert "broken_scan.py: internal error in the byte scan" in run.err and "KeyError" in run.err
    assert "fragile.py:5:9: FSD206" in run.out
    assert "broken_scan.py:4:1: FSD201" in run.out and "sturdy.py:4:1: FSD201" in run.out
