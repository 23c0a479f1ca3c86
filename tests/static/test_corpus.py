"""The corpus of issue 12: small multi-file training programs written the way real FSDP2 code is
structured (a Trainer class, a setup() that returns the model, a train_step helper in another
module, a checkpoint module), one per analysis mechanism and rule, each next to a clean look-alike.

Each case directory under corpus/ is linted whole, with every rule, as a user would lint a
project. A line that must be reported ends with `# expect: FSDnnn`; nothing else may be reported.
A violation case `<mechanism>__<name>` has its twin `<mechanism>__<name>_clean` beside it, with the
same structure and the mistake absent or made harmless, and no marker.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

import pytest

from fsdp_lint.engine.lint import LintOptions, lint_paths
from fsdp_lint.engine.rule import EXPECT_MARKER

CORPUS = Path(__file__).parent / "corpus"

# Cases that today's analysis gets wrong, with what it lacks. A case that starts passing fails
# (strict xfail) until its entry is removed here.
PENDING = {
    # paths
    # calls
    # objects
    # containers
    # entry points and the open world
    # parameters replaced after the optimizer
    # one answer from one place
}

Finding = Tuple[str, int, str]


def _case_dirs() -> List[Path]:
    return sorted(path for path in CORPUS.iterdir() if path.is_dir() and "__" in path.name)


def _sources(case: Path) -> List[Path]:
    return sorted(case.rglob("*.py"))


def _expected(case: Path) -> List[Finding]:
    found = []
    for source in _sources(case):
        relative = source.relative_to(case).as_posix()
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
            found.extend((relative, number, code) for code in re.findall(EXPECT_MARKER, line))
    return sorted(found)


def _found(case: Path) -> List[Finding]:
    result = lint_paths([str(case)], LintOptions())
    assert not result.internal_errors, result.internal_errors[0].trace
    return sorted((Path(v.path).relative_to(case).as_posix(), v.line, v.code) for v in result.violations)


def _param(case: Path):
    marks = [pytest.mark.xfail(strict=True, reason=PENDING[case.name])] if case.name in PENDING else []
    return pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in _case_dirs()])
def test_case_reports_exactly_its_markers(case: Path) -> None:
    assert _found(case) == _expected(case)


def test_every_violation_case_has_a_clean_twin() -> None:
    names = {case.name for case in _case_dirs()}
    for case in _case_dirs():
        if case.name.endswith("_clean"):
            assert case.name[: -len("_clean")] in names, f"{case.name} is the twin of no violation case"
            assert not _expected(case), f"{case.name} is a clean case but carries expect markers"
        else:
            assert case.name + "_clean" in names, f"{case.name} has no clean look-alike"
            assert _expected(case), f"{case.name} is a violation case without expect markers"
            assert len(_sources(case)) > 1, f"{case.name} should be a multi-file program"


def test_pending_names_only_existing_cases() -> None:
    assert set(PENDING) <= {case.name for case in _case_dirs()}
