"""The rule pass takes a walk of the facts that the rules heard instead of walking again where that
walk would repeat it (`Project.replayable`): the findings, messages and related places included,
must be those of walking every entry and callee again. Checked on every corpus program, and on
programs where a walk of the facts heard something the rule pass must not take: a rule reading
what is collected only before the rule pass (`Project.imported`), a rule that crashes."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

import pytest

from fsdp_lint.analysis.project import Project
from fsdp_lint.engine.lint import LintOptions, lint_paths, lint_sources
from fsdp_lint.engine.registry import all_rules

CORPUS = Path(__file__).parent / "corpus"


def _findings(result) -> List[Tuple[object, ...]]:
    return sorted((v.path, v.line, v.column, v.code, v.message, v.related) for v in result.violations)


def _replays(monkeypatch) -> List[bool]:
    """Counts the rule pass's walks taken from the facts (True) and walked again (False)."""
    taken: List[bool] = []
    replayable = Project.replayable

    def counted(self, scope, context, origins):
        record = replayable(self, scope, context, origins)
        taken.append(record is not None)
        return record

    monkeypatch.setattr(Project, "replayable", counted)
    return taken


@pytest.mark.parametrize("case", sorted(path.name for path in CORPUS.iterdir() if path.is_dir() and "__" in path.name))
def test_taking_the_facts_walks_finds_what_walking_again_finds(case, monkeypatch):
    taken = _replays(monkeypatch)
    replayed = lint_paths([str(CORPUS / case)], LintOptions())
    monkeypatch.setattr(Project, "replayable", lambda self, scope, context, origins: None)
    walked = lint_paths([str(CORPUS / case)], LintOptions())
    assert not replayed.internal_errors and not walked.internal_errors
    assert _findings(replayed) == _findings(walked)
    assert any(taken), "the rule pass walked every function again"


SCRIPT = """
import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard
from setup import select

def main():
    select()
    dist.init_process_group("nccl")
    model = torch.nn.Linear(2, 2)
    fully_shard(model)

if __name__ == "__main__":
    main()
"""


def test_a_walk_whose_rules_read_code_collected_after_the_facts_is_walked_again():
    """FSD106 reads the modules a script imports (`Project.imported`), collected after the facts:
    the facts' walk of `main` heard none of it, so the rule pass walks `main` again and sees that
    `setup.select` picks the GPU."""
    clean = lint_sources({"train.py": SCRIPT, "setup.py": "import os, torch\n\ndef select():\n    torch.cuda.set_device(int(os.environ['LOCAL_RANK']))\n"}, LintOptions())
    assert [v.code for v in clean.violations] == []
    unselected = lint_sources({"train.py": SCRIPT, "setup.py": "def select():\n    pass\n"}, LintOptions())
    assert [(v.code, v.line) for v in unselected.violations] == [("FSD106", 9)]


def test_a_rule_that_crashed_in_a_walk_of_the_facts_is_run_again_by_the_rule_pass(monkeypatch):
    """A rule's crash is the rule pass's to report (once, as an internal error of the file), and the
    rule is then skipped for that file only: a walk of the facts where it crashed is walked again."""
    rule = all_rules()["FSD201"]
    on_call = rule.on_call
    crashes: List[str] = []

    def explode(self, node, flow):
        if flow.scope.root().name == "broken":
            crashes.append(flow.key)
            raise ValueError("boom")
        on_call(self, node, flow)

    monkeypatch.setattr(rule, "on_call", explode)
    broken = "from torch.distributed.fsdp import fully_shard\n\ndef helper(model):\n    fully_shard(model)\n\ndef run(model):\n    helper(model)\n"
    result = lint_sources({"broken.py": broken}, LintOptions())
    assert [(error.path, error.component) for error in result.internal_errors] == [("broken.py", "rule FSD201 (forward-bypass)")]
    assert len(crashes) > 1  # in the walks of the facts, and again in the rule pass
