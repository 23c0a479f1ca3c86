"""Hostile inputs each give one clear FSD001 (or nothing, where the file is fine; FSD002 where it
is fine for a newer Python), never a traceback, and never stop the rest of the run: the FSD201 in
good.py is found every time, with one process or several, cold or from the cache."""

from __future__ import annotations

import json
import os
import sys

import pytest

from tests.static.helpers import run_cli, write_tree

USES_FSDP2 = b"from torch.distributed.fsdp import fully_shard\n"
GOOD = "from torch.distributed.fsdp import fully_shard\nfully_shard(model)\nmodel.forward(x)\n"

# Python 3.12 syntax: FSD002 (no project declares a Python here) where this Python cannot parse it.
NEEDS_3_12 = "needs python 3.12 to parse" if sys.version_info < (3, 12) else None

# name -> (content, expected FSD001 message fragment, or None for a file that is fine)
INPUTS = {
    "syntax_error.py": (USES_FSDP2 + b"def f(:\n    pass\n", "syntax error"),
    "syntax_error_elsewhere.py": (b"def f(:\n    pass\n", "syntax error"),
    "newer_syntax.py": (USES_FSDP2 + b"type Point = tuple[int, int]\n", NEEDS_3_12),
    "newer_generics.py": (USES_FSDP2 + b"def first[T](xs: list[T]) -> T:\n    return xs[0]\n", NEEDS_3_12),
    "undecodable.py": (USES_FSDP2 + b"x = '\xff\xfe'\n", "not valid utf-8"),
    "undecodable_cookie.py": (b"# -*- coding: ascii -*-\n" + USES_FSDP2 + b"x = '\xc3\xa9'\n", "not valid ascii"),
    "unknown_cookie.py": (b"# -*- coding: klingon -*-\nx = 1\n", "unknown encoding"),
    "nul.py": (USES_FSDP2 + b"x = 1\x00\n", "nul bytes"),
    "bom.py": (b"\xef\xbb\xbf" + USES_FSDP2 + b"x = 1\n", None),
    "crlf.py": (USES_FSDP2.replace(b"\n", b"\r\n") + b"x = 1\r\n", None),
    "mixed_tabs.py": (USES_FSDP2 + b"if x:\n        a = 1\n\tb = 2\n", "tabs and spaces"),
    "megabyte_line.py": (USES_FSDP2 + b"x = [" + b"1, " * 350_000 + b"]\n", None),
    "deep_parentheses.py": (USES_FSDP2 + b"x = " + b"(" * 3000 + b"1" + b")" * 3000 + b"\n", "nest"),
    "deep_blocks.py": (USES_FSDP2 + b"".join(b"    " * i + b"if x:\n" for i in range(120)) + b"    " * 120 + b"pass\n", "indentation"),
    "deep_sum.py": (USES_FSDP2 + b"x = " + b" + ".join([b"a"] * 3000) + b"\n", "nest"),
    "deep_attributes.py": (USES_FSDP2 + b"x = a" + b".b" * 3000 + b"\n", "nest"),
    "deep_unary.py": (USES_FSDP2 + b"x = " + b"-" * 3000 + b"1\n", "nest"),
    "deep_calls.py": (USES_FSDP2 + b"x = " + b"f(" * 3000 + b"1" + b")" * 3000 + b"\n", "nest"),
    "deep_ifs_in_functions.py": (
        USES_FSDP2 + b"def f(model):\n" + b"".join(b"    " * (i + 1) + b"if x:\n" for i in range(95)) + b"    " * 96 + b"fully_shard(model)\n",
        None,
    ),
    "only_comments.py": (b"# a comment\n# fully_shard is mentioned only here\n", None),
    "empty.py": (b"", None),
    "stub.pyi": (USES_FSDP2 + b"def apply_fsdp(model: object) -> object: ...\n", None),
}

RUNS = {
    "one process": ["--jobs", "1", "--no-cache"],
    "every core": ["--jobs", "0", "--no-cache"],
    "cold then warm cache": ["--cache-dir", ".cache"],
}


def _lint(tree, flags):
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        run = run_cli(["--format", "json", *flags, "."])
    finally:
        os.chdir(cwd)
    assert "Traceback" not in run.out + run.err
    assert run.code in (0, 1), run.err
    return run, json.loads(run.out)


@pytest.mark.parametrize("run_kind", sorted(RUNS))
@pytest.mark.parametrize("name", sorted(INPUTS))
def test_hostile_input(tmp_path, name, run_kind):
    content, expected = INPUTS[name]
    (tmp_path / name).write_bytes(content)
    write_tree(tmp_path, {"good.py": GOOD})
    for _ in range(2 if "cache" in run_kind else 1):
        _, records = _lint(tmp_path, RUNS[run_kind])
        mine = [r for r in records if r["path"].endswith(name)]
        if expected is None:
            assert mine == []
        else:
            assert len(mine) == 1 and mine[0]["code"] == ("FSD002" if expected == NEEDS_3_12 else "FSD001"), mine
            assert expected in mine[0]["message"].lower()
        assert any(r["code"] == "FSD201" and r["path"].endswith("good.py") for r in records)


def test_paths_that_are_not_files(tmp_path):
    """A directory named like a module is walked into; links that lead nowhere are one FSD001 each."""
    (tmp_path / "pkg.py").mkdir()
    write_tree(tmp_path, {"pkg.py/inner.py": GOOD, "good.py": GOOD})
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "loop_a.py").symlink_to(tmp_path / "loop_b.py")
    (tmp_path / "loop_b.py").symlink_to(tmp_path / "loop_a.py")
    (tmp_path / "dir_loop").symlink_to(tmp_path)
    _, records = _lint(tmp_path, ["--no-cache"])
    by_name = {}
    for record in records:
        by_name.setdefault(os.path.basename(record["path"]), []).append(record)
    assert [r["code"] for r in by_name["inner.py"]] == ["FSD201"]
    assert [r["code"] for r in by_name["good.py"]] == ["FSD201"]
    assert "broken symbolic link" in by_name["dangling.py"][0]["message"]
    assert len(by_name["loop_a.py"]) == 1 and "symbolic links" in by_name["loop_a.py"][0]["message"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_reported_not_waited_on(tmp_path):
    """Opening a FIFO for reading blocks until a writer comes: a linter that did would hang CI."""
    write_tree(tmp_path, {"good.py": GOOD})
    os.mkfifo(tmp_path / "pipe.py")
    _, records = _lint(tmp_path, ["--no-cache"])
    pipe = [r for r in records if r["path"].endswith("pipe.py")]
    assert len(pipe) == 1 and pipe[0]["code"] == "FSD001" and "not a regular file" in pipe[0]["message"]
    assert any(r["code"] == "FSD201" and r["path"].endswith("good.py") for r in records)


def test_unreadable_file(tmp_path, monkeypatch):
    """chmod 000 does not stop root (the test runner here), so a refused open is simulated too."""
    write_tree(tmp_path, {"secret.py": GOOD, "good.py": GOOD})
    os.chmod(tmp_path / "secret.py", 0)
    real_open = os.open

    def refusing_open(file, *args, **kwargs):
        if str(file).endswith("secret.py"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    try:
        _, records = _lint(tmp_path, ["--no-cache"])
    finally:
        os.chmod(tmp_path / "secret.py", 0o644)
    secret = [r for r in records if r["path"].endswith("secret.py")]
    assert len(secret) == 1 and secret[0]["code"] == "FSD001" and "permission denied" in secret[0]["message"].lower()
    assert any(r["code"] == "FSD201" and r["path"].endswith("good.py") for r in records)
