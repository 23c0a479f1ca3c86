"""README's rules table and the catalogue come from the same source and stay in step."""

from __future__ import annotations

import os
from pathlib import Path

from fsdp_lint.catalogue import catalogue
from fsdp_lint.frontends.docs import with_table
from fsdp_lint.engine.registry import all_rules

ROOT = Path(__file__).resolve().parents[2]


def test_readme_rules_table_is_current():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme == with_table(readme), "README.md's rules table is stale: run `python -m fsdp_lint.frontends.docs`"


def test_every_rule_and_runtime_check_file_is_named_after_its_contract():
    for directory in ("rules", "runtime_checks"):
        for name in os.listdir(ROOT / directory):
            if name.startswith("fsd") and name.endswith(".py"):
                entry = catalogue()[name[:6].upper()]
                assert name == f"{entry.code.lower()}_{entry.name.replace('-', '_')}.py", name


def test_static_and_runtime_twins_share_code_name_and_severity():
    for entry in catalogue().values():
        if entry.static and entry.runtime:
            assert (entry.static.name, entry.static.severity) == (entry.runtime.name, entry.runtime.severity), entry.code


def test_catalogue_matches_the_imported_rules():
    for code, rule in all_rules().items():
        entry = catalogue()[code]
        assert (entry.name, entry.severity) == (rule.name, rule.severity)
        assert entry.doc == (rule.__doc__ and __import__("inspect").cleandoc(rule.__doc__))
