"""Property tests: the engine never raises, whatever the source; and findings do not depend on
formatting (indent width, blank lines, comments, redundant parentheses): the same codes at the
same lines once the inserted lines are accounted for."""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fsdp_lint.engine.lint import LintOptions, lint_sources
from tests.robustness.fsdp2_scripts import PROJECT, TRAIN_SCRIPT

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LINES = TRAIN_SCRIPT.splitlines(keepends=True)


def _codes_by_line(sources: Dict[str, str]) -> List[Tuple[str, int, str]]:
    return sorted((v.path, v.line, v.code) for v in lint_sources(sources, LintOptions()).violations)


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
def test_mutations_of_a_real_script_never_raise(source):
    result = lint_sources({"train.py": source, **PROJECT}, LintOptions())
    assert all(v.line >= 1 for v in result.violations)


@SETTINGS
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(source):
    lint_sources({"fsdp_user.py": "from torch.distributed.fsdp import fully_shard\n" + source}, LintOptions())


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
