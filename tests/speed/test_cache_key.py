"""Which cache file a run uses: the same for a reinstall of the same build (CI restores the
cache into a fresh environment, where every file is new), another for an edited rule."""

from __future__ import annotations

import os
import shutil

import fsdp_lint.rules
from fsdp_lint.engine.cache import ResultCache


def _cache_file(tmp_path) -> str:
    return ResultCache.open(str(tmp_path / "cache"), ["src"], "options").path


def test_a_reinstall_of_the_same_build_keeps_the_cache(tmp_path, monkeypatch):
    copy = tmp_path / "rules"
    shutil.copytree(os.path.dirname(fsdp_lint.rules.__file__), copy)
    monkeypatch.setattr(fsdp_lint.rules, "__file__", str(copy / "__init__.py"))
    before = _cache_file(tmp_path)
    for name in os.listdir(copy):
        if name.endswith(".py"):
            os.utime(copy / name, (1_000_000_000, 1_000_000_000))  # what a reinstall does to them
    assert _cache_file(tmp_path) == before


def test_an_edited_rule_gets_a_cache_of_its_own(tmp_path, monkeypatch):
    copy = tmp_path / "rules"
    shutil.copytree(os.path.dirname(fsdp_lint.rules.__file__), copy)
    monkeypatch.setattr(fsdp_lint.rules, "__file__", str(copy / "__init__.py"))
    before = _cache_file(tmp_path)
    rule = next(name for name in sorted(os.listdir(copy)) if name.startswith("fsd2"))
    with open(copy / rule, "a", encoding="utf-8") as handle:
        handle.write("\n# edited\n")
    assert _cache_file(tmp_path) != before
