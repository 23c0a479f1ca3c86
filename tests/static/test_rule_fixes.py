"""Every fix is tested where it is defined: an INVALID example whose findings carry fixes states
the fixed code (`Invalid(..., fixed=...)`), and here the fixes are applied as `--fix --unsafe-fixes`
applies them, compared with it, parsed, and linted again: the fixed findings must be gone and
nothing new may appear. An example that states no `fixed` must get no fix."""

from __future__ import annotations

import ast

import pytest

from fsdp_lint.engine import fixes
from fsdp_lint.engine.lint import LintOptions, lint_sources
from fsdp_lint.engine.registry import all_rules
from fsdp_lint.selection import Selection

CASES = [
    pytest.param(cls, example, id=f"{code}-invalid-{index}")
    for code, cls in all_rules().items()
    for index, example in enumerate(cls.INVALID)
]


@pytest.mark.parametrize("rule, example", CASES)
def test_invalid_example_fixes(rule, example):
    options = LintOptions(selection=Selection((rule.code,)))
    sources = example.files()
    found = lint_sources(sources, options).violations
    fixable = [v for v in found if v.fix is not None]
    if example.fixed is None:
        assert not fixable, f"{rule.code}: findings with a fix need `fixed=` on their INVALID example: {fixable}"
        return
    assert fixable, f"{rule.code}: `fixed=` is stated but no finding carries a fix"
    run = fixes.plan_sources(sources, options, unsafe_fixes=True)
    assert not run.refused, run.refused
    fixed = {**sources, **{fix.path: fix.fixed for fix in run.fixes}}
    assert fixed == example.fixed_files()
    for path, text in fixed.items():
        ast.parse(text, filename=path)
    again = lint_sources(fixed, options)
    assert not again.internal_errors, again.internal_errors[0].trace
    assert sorted(set(fixable) - set(run.fixed)) == [], "every fix of the example must apply in one run"
    left = sorted((v.path, v.code) for v in again.violations)
    expected_left = sorted((v.path, v.code) for v in found if v.fix is None)
    assert left == expected_left, "the fixed findings must be gone, and nothing new appear"


def test_fixes_are_labelled_safe_or_unsafe():
    for code, rule in all_rules().items():
        for example in rule.INVALID:
            for violation in lint_sources(example.files(), LintOptions(selection=Selection((code,)))).violations:
                if violation.fix is not None:
                    assert violation.fix.applicability in ("safe", "unsafe")
                    assert violation.fix.edits
