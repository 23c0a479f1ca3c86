"""Property tests: the engine never crashes, whatever the source (neither raises nor survives a
crash of its own as an internal error); and findings do not depend on formatting (indent width,
blank lines, comments, redundant parentheses): the same codes at the same lines once the inserted
lines are accounted for."""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsdp_lint.analysis.flow import Flow
from fsdp_lint.engine.lint import LintOptions, LintResult, lint_sources
from tests.robustness.fsdp2_scripts import PROJECT, TRAIN_SCRIPT

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LINES = TRAIN_SCRIPT.splitlines(keepends=True)


def _lint(sources: Dict[str, str]) -> LintResult:
    """Lint, and fail on a crash the engine survived: it turns one into an internal error (exit 2)
    instead of raising, so "never raises" alone would pass with every analysis crashing."""
    result = lint_sources(sources, LintOptions())
    assert not result.internal_errors, result.internal_errors[0].describe() + "\n" + result.internal_errors[0].trace
    return result


def _codes_by_line(sources: Dict[str, str]) -> List[Tuple[str, int, str]]:
    return sorted((v.path, v.line, v.code) for v in _lint(sources).violations)


@st.composite
def mutated_script(draw) -> str:
    """The training script with lines dropped, duplicated, swapped, or spliced with junk."""
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "duplicate", "swap", "junk", "truncate"]))
        if action == "drop":
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, lines[index])
        elif action == "swap" and index + 1 < len(lines):
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
        elif action == "junk":
            lines.insert(index, draw(st.text(max_size=40)) + "\n")
        elif action == "truncate":
            lines[index] = lines[index][: draw(st.integers(0, len(lines[index])))]
        if not lines:
            lines = [""]
    return "".join(lines)


@SETTINGS
@given(mutated_script())
def test_mutations_of_a_real_script_never_crash(source):
    result = _lint({"train.py": source, **PROJECT})
    assert all(v.line >= 1 for v in result.violations)


@SETTINGS
@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes(source):
    _lint({"fsdp_user.py": "from torch.distributed.fsdp import fully_shard\n" + source})


def test_the_properties_fail_when_the_analysis_crashes(monkeypatch):
    """Each property, given one input, fails when every flow analysis crashes: on the internal
    error the engine turns the crash into, or on the crash itself if it escapes."""

    def crash(self):
        raise ZeroDivisionError("every flow crashes")

    monkeypatch.setattr(Flow, "run", crash)
    failed = (AssertionError, ZeroDivisionError)
    with pytest.raises(failed, match="every flow crashes"):
        test_mutations_of_a_real_script_never_crash.hypothesis.inner_test(TRAIN_SCRIPT)
    with pytest.raises(failed, match="every flow crashes"):
        test_arbitrary_text_never_crashes.hypothesis.inner_test("fully_shard(model)\nmodel.forward(x)\n")
    with pytest.raises(failed, match="every flow crashes"):
        test_findings_do_not_depend_on_formatting.hypothesis.inner_test(
            width=4, blank_after=set(), commented=set(), parenthesised=False
        )


REFERENCE = _codes_by_line({"train.py": TRAIN_SCRIPT})


def _reindent(source: str, width: int) -> str:
    return re.sub(r"(?m)^((?:    )+)", lambda m: " " * (len(m.group(1)) // 4 * width), source)


@SETTINGS
@given(
    width=st.sampled_from([1, 2, 3, 4, 8]),
    blank_after=st.sets(st.integers(1, len(LINES)), max_size=6),
    commented=st.sets(st.integers(1, len(LINES)), max_size=10),
    parenthesised=st.booleans(),
)
def test_findings_do_not_depend_on_formatting(width, blank_after, commented, parenthesised):
    out: List[str] = []
    new_line_of: Dict[int, int] = {}
    for number, line in enumerate(_reindent(TRAIN_SCRIPT, width).splitlines(), start=1):
        if parenthesised:
            line = re.sub(r"^(\s*\w+ = )(.+)$", r"\1(\2)", line)
        if number in commented and line.strip() and not line.rstrip().endswith(("\\", ",", "(", "[")):
            line += "  # reviewed"
        out.append(line)
        new_line_of[number] = len(out)
        if number in blank_after:
            out.extend(["", "# a comment line", ""])
    found = _codes_by_line({"train.py": "\n".join(out) + "\n"})
    assert found == [(path, new_line_of[line], code) for path, line, code in REFERENCE]
