"""Every rule's VALID and INVALID examples, run as tests: a new rule is covered when it exists."""

from __future__ import annotations

import pytest

from fsdp_lint.engine.lint import lint_sources
from fsdp_lint.engine.registry import all_rules
from fsdp_lint.selection import Selection
from fsdp_lint.engine.lint import LintOptions

CASES = [
    pytest.param(cls, kind, example, id=f"{code}-{kind}-{index}")
    for code, cls in all_rules().items()
    for kind, examples in (("valid", cls.VALID), ("invalid", cls.INVALID))
    for index, example in enumerate(examples)
]


@pytest.mark.parametrize("rule, kind, example", CASES)
def test_example(rule, kind, example):
    result = lint_sources(example.files(), LintOptions(selection=Selection((rule.code,))))
    assert not result.internal_errors, result.internal_errors[0].trace
    found = tuple(sorted((v.path, v.line, v.code) for v in result.violations))
    assert found == example.expected()
    if kind == "invalid":
        assert found, "an INVALID example must mark at least one finding"


@pytest.mark.parametrize("code, rule", list(all_rules().items()))
def test_rule_has_docs_and_both_kinds_of_examples(code, rule):
    doc = rule.__doc__ or ""
    for section in ("## What it does", "## Why is this bad?", "## Example", "Use instead:"):
        assert section in doc, f"{code} docstring lacks {section!r}"
    assert rule.VALID and rule.INVALID
    assert any(len(example.files()) > 1 for example in list(rule.INVALID)), (
        f"{code} needs a multi-file INVALID example (the helper and the misuse in different modules)"
    )


def test_codes_follow_the_catalogue_scheme():
    for code, rule in all_rules().items():
        assert code[:3] == "FSD" and code[3:].isdigit() and len(code) == 6
        assert rule.severity in ("error", "warning")
        assert rule.name == rule.name.lower() and " " not in rule.name
