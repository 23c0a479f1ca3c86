"""The FSD001 check of the files the analysis skips: trusting Python's own bytecode cache only
for the exact bytes it was compiled from, and splitting the work across processes without
changing what it finds."""

from __future__ import annotations

import os
import py_compile

from fsdp_lint.engine import syntax_check
from fsdp_lint.engine.lint import LintOptions, lint_paths

GOOD = b"def f(x):\n    return x + 1\n"
BROKEN_SAME_SIZE = b"def f(x):\n    return x + +\n"


def _codes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return [(v.path, v.code) for v in lint_paths(["."], LintOptions(jobs=1)).violations]


def test_a_matching_bytecode_cache_vouches_for_the_file(tmp_path, monkeypatch):
    source = tmp_path / "mod.py"
    source.write_bytes(GOOD)
    py_compile.compile(str(source), doraise=True)
    assert syntax_check.compiled_by_python(str(source), GOOD)
    monkeypatch.setattr(syntax_check, "_symbol_table", None)
    monkeypatch.setattr(syntax_check, "compile", lambda *a, **k: (_ for _ in ()).throw(AssertionError("parsed")), raising=False)
    assert _codes(tmp_path, monkeypatch) == []


def test_a_stale_bytecode_cache_is_not_trusted(tmp_path, monkeypatch):
    source = tmp_path / "mod.py"
    source.write_bytes(GOOD)
    py_compile.compile(str(source), doraise=True)
    stamp = os.stat(source).st_mtime_ns
    source.write_bytes(BROKEN_SAME_SIZE)
    os.utime(source, ns=(stamp + 5 * 10**9, stamp + 5 * 10**9))  # same size, another second
    assert not syntax_check.compiled_by_python(str(source), BROKEN_SAME_SIZE)
    assert _codes(tmp_path, monkeypatch) == [("mod.py", "FSD001")]


def test_a_hash_based_cache_is_checked_against_the_bytes(tmp_path, monkeypatch):
    source = tmp_path / "mod.py"
    source.write_bytes(GOOD)
    py_compile.compile(str(source), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    assert syntax_check.compiled_by_python(str(source), GOOD)
    source.write_bytes(BROKEN_SAME_SIZE)
    assert not syntax_check.compiled_by_python(str(source), BROKEN_SAME_SIZE)
    assert _codes(tmp_path, monkeypatch) == [("mod.py", "FSD001")]


def test_two_processes_find_what_one_finds(tmp_path, monkeypatch):
    files = {f"m{i}.py": (GOOD if i % 7 else b"def f(:\n") for i in range(60)}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    texts = {name: data.decode() for name, data in files.items()}
    names = {name: name[:-3] for name in files}
    paths = sorted(files)
    monkeypatch.chdir(tmp_path)
    alone = syntax_check.start(texts, names, paths, in_background=False)()
    monkeypatch.setattr(syntax_check, "MIN_FILES", 0)
    shared = syntax_check.start(texts, names, paths, in_background=True, data=files)()
    assert sorted(alone) == sorted(shared) and len(alone) == 9
