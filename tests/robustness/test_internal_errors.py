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
from fsdp_lint import parallel
from fsdp_lint.registry import all_rules
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
