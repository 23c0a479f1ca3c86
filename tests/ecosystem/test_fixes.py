"""`--fix` and `--diff`: the rules' Edits applied, formatting kept, the result proved by a re-lint."""

from __future__ import annotations

import pytest

from fsdp_lint.engine import fixes
from fsdp_lint.violation import Edit, Violation
from tests.ecosystem.samples import TRAIN
from tests.static.helpers import run_cli, write_tree

FIXED_LINES = ("out = model(x)  # keep this comment\n", 'y = model.layers[0](out, "a,b:c%")\n')


@pytest.fixture
def tree(tmp_path, monkeypatch):
    write_tree(tmp_path, {"train.py": TRAIN})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_diff_shows_the_patch_and_writes_nothing(tree):
    run = run_cli(["--diff", "."])
    assert run.code == 1
    assert run.out.splitlines()[:2] == ["--- a/train.py", "+++ b/train.py"]
    assert "-out = model.forward(x)  # keep this comment\n" in run.out
    assert "+out = model(x)  # keep this comment\n" in run.out
    assert "Would fix 2 findings (2 FSD201)." in run.err
    assert (tree / "train.py").read_text() == TRAIN


def test_fix_rewrites_keeps_comments_and_reports_what_is_left(tree):
    run = run_cli(["--fix", "--format", "concise", "."])
    assert run.code == 1  # FSD202 and FSD301 have no mechanical fix
    assert "FSD201" not in run.out
    assert run.out.splitlines()[-1] == "Found 2 findings (1 FSD202, 1 FSD301)."
    assert "Fixed 2 findings (2 FSD201)." in run.err
    text = (tree / "train.py").read_text()
    assert all(line in text for line in FIXED_LINES)
    assert text.replace("".join(FIXED_LINES), "") == TRAIN.replace(
        'out = model.forward(x)  # keep this comment\ny = model.layers[0].forward(out, "a,b:c%")\n', ""
    )
    assert run_cli(["--diff", "."]).code == 0  # nothing left to fix


def test_fix_keeps_crlf_bom_and_declared_encoding(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    crlf = TRAIN.replace("\n", "\r\n").encode()
    latin = ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + TRAIN).encode("latin-1")
    bom = b"\xef\xbb\xbf" + TRAIN.encode()
    for name, data in (("crlf.py", crlf), ("latin.py", latin), ("bom.py", bom)):
        (tmp_path / name).write_bytes(data)
    assert run_cli(["--fix", "--select", "FSD201", "."]).code == 0
    assert (tmp_path / "crlf.py").read_bytes() == crlf.replace(b".forward(", b"(")
    assert (tmp_path / "latin.py").read_bytes() == latin.replace(b".forward(", b"(")
    assert (tmp_path / "bom.py").read_bytes() == bom.replace(b".forward(", b"(")


def test_files_that_do_not_parse_are_left_alone(tree):
    (tree / "broken.py").write_text("def f(:\n    model.forward(x)\n")
    run = run_cli(["--fix", "--format", "concise", "."])
    assert (tree / "broken.py").read_text() == "def f(:\n    model.forward(x)\n"
    assert "broken.py:1:7: FSD001" in run.out


def test_apply_edits_is_generic_multiline_and_skips_overlaps():
    text = "with m.no_sync():\r\n    loss.backward()  # keep\nrest\n"
    edits = [
        Edit(1, 1, 2, 1, "m.set_requires_gradient_sync(False)\r\n"),
        Edit(1, 6, 1, 15, "overlapping"),
        Edit(2, 5, 2, 5, ""),
        Edit(3, 5, 4, 1, "!\n"),
    ]
    fixed, applied = fixes.apply_edits(text, edits)
    assert fixed == "m.set_requires_gradient_sync(False)\r\n    loss.backward()  # keep\nrest!\n"
    assert edits[1] not in applied and len(applied) == 3


def _inject(monkeypatch, edit: Edit):
    """Make every lint also report a finding whose fix is `edit` (a rule's bad fix)."""
    real = fixes.lint_sources

    def lint_sources(sources, options, **kwargs):
        result = real(sources, options, **kwargs)
        result.violations.append(Violation("train.py", 1, 1, "FSD201", "forward-bypass", "injected", fix=edit))
        return result

    monkeypatch.setattr(fixes, "lint_sources", lint_sources)


def test_a_fix_that_breaks_the_syntax_is_refused(tree, monkeypatch):
    _inject(monkeypatch, Edit(1, 1, 1, 1, "def ("))
    run = run_cli(["--fix", "."])
    assert "train.py: fixes not applied: the fixed file would not parse" in run.err
    assert (tree / "train.py").read_text() == TRAIN


def test_a_fix_that_a_relint_does_not_prove_is_refused(tree, monkeypatch):
    _inject(monkeypatch, Edit(1, 1, 1, 1, "# still here\n"))
    run = run_cli(["--fix", "."])
    assert "train.py: fixes for FSD201 not applied: linting the fixed file did not prove them" in run.err
    assert (tree / "train.py").read_text() == TRAIN


def test_unreadable_files_are_still_reported_in_fix_mode(tree):
    (tree / "latin.py").write_bytes(b"x = '\xff'\n")
    run = run_cli(["--fix", "--format", "concise", "."])
    assert "latin.py:1:1: FSD001" in run.out


NO_SYNC = """\
from torch.distributed.fsdp import fully_shard

def train(model, batches, accumulate):
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    for step, batch in enumerate(batches):
        if step % accumulate:
            with model.no_sync():
                loss = model(batch).sum()  # micro-batch
                loss.backward()
        else:
            model(batch).sum().backward()
"""
NO_SYNC_FIXED = NO_SYNC.replace(
    """            with model.no_sync():
                loss = model(batch).sum()  # micro-batch
                loss.backward()
""",
    """            model.set_requires_gradient_sync(False)
            loss = model(batch).sum()  # micro-batch
            loss.backward()
            model.set_requires_gradient_sync(True)
""",
)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_fix_rewrites_no_sync_into_set_requires_gradient_sync(tmp_path, monkeypatch, newline):
    (tmp_path / "train.py").write_bytes(NO_SYNC.replace("\n", newline).encode())
    monkeypatch.chdir(tmp_path)
    run = run_cli(["--fix", "--select", "FSD203", "."])
    assert run.code == 0, run.out + run.err
    assert (tmp_path / "train.py").read_bytes() == NO_SYNC_FIXED.replace("\n", newline).encode()


def test_no_sync_with_an_alias_is_reported_but_not_rewritten(tmp_path, monkeypatch):
    aliased = NO_SYNC.replace("with model.no_sync():", "with model.no_sync() as ctx:")
    write_tree(tmp_path, {"train.py": aliased})
    monkeypatch.chdir(tmp_path)
    run = run_cli(["--fix", "--select", "FSD203", "--format", "concise", "."])
    assert run.code == 1 and "FSD203" in run.out
    assert (tmp_path / "train.py").read_text() == aliased
