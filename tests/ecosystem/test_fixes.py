"""`--fix` and `--diff`: the rules' fixes applied (the safe ones; the unsafe ones with
`--unsafe-fixes`), formatting kept, the result proved by a re-lint, and no fix changing what the
code does."""

from __future__ import annotations

import pytest

from fsdp_lint.engine import fixes
from fsdp_lint.violation import Edit, Fix, Violation
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
    """Make every lint also report a finding whose safe fix is `edit` (a rule's bad fix)."""
    real = fixes.lint_sources

    def lint_sources(sources, options, **kwargs):
        result = real(sources, options, **kwargs)
        result.violations.append(Violation("train.py", 1, 1, "FSD201", "forward-bypass", "injected", fix=Fix.safe(edit)))
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
            try:
                loss = model(batch).sum()  # micro-batch
                loss.backward()
            finally:
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


# The same training loop, left by each way out of the `no_sync()` block on its last batch.
EXITS = {
    "falls through": "pass",
    "continue": "continue",
    "break": "break",
    "return": "return 'early'",
    "raise": "raise ValueError('bad batch')",
    "a call that raises": "check(batch)",
}
LOOP = """\
from torch.distributed.fsdp import fully_shard

def train(model, batches):
    fully_shard(model)
    for batch in batches:
        with model.no_sync():
            loss = model(batch)
            if batch == 4:
                {exit}
            loss.backward()
        model(batch).backward()  # the step's own backward
"""


class _Model:
    """FSDP1's `no_sync()` (restores the sync state it found) and FSDP2's
    `set_requires_gradient_sync`, recording the sync state of every backward."""

    def __init__(self):
        self.sync, self.backwards = True, []

    def no_sync(self):
        import contextlib

        @contextlib.contextmanager
        def disabled():
            found, self.sync = self.sync, False
            try:
                yield
            finally:
                self.sync = found

        return disabled()

    def set_requires_gradient_sync(self, value):
        self.sync = value

    def __call__(self, batch):
        model = self

        class Loss:
            def backward(self):
                model.backwards.append((batch, model.sync))

        return Loss()


def _run(source: str):
    """Run `train` of `source` on a model and a batch list; what it returned or raised, the sync
    state of each backward, and the sync state it left."""
    namespace = {"fully_shard": lambda module: module, "check": lambda batch: 1 / (batch - 4)}
    exec(compile(source.replace("from torch.distributed.fsdp import fully_shard\n", ""), "train.py", "exec"), namespace)
    model = _Model()
    try:
        outcome = ("returned", namespace["train"](model, [0, 1, 2, 3, 4]))
    except Exception as error:  # the block's error, caught here as a training loop's caller might
        outcome = ("raised", type(error).__name__)
    return outcome, model.backwards, model.sync


@pytest.mark.parametrize("exit", sorted(EXITS))
def test_the_no_sync_fix_keeps_what_the_code_does_on_every_way_out(tmp_path, monkeypatch, exit):
    """Before the fix, FSDP1's `no_sync()`; after it, FSDP2's calls: the same backwards with the
    same sync state, the same result, and sync back on however the block was left."""
    original = LOOP.format(exit=EXITS[exit])
    (tmp_path / "train.py").write_text(original)
    monkeypatch.chdir(tmp_path)
    run = run_cli(["--fix", "--select", "FSD203", "--no-cache", "."])
    fixed = (tmp_path / "train.py").read_text()
    assert run.code == 0, run.out + run.err
    assert "try:" in fixed and "finally:" in fixed and "no_sync" not in fixed
    assert _run(fixed) == _run(original)
    assert _run(fixed)[2] is True
    assert run_cli(["--no-cache", "."]).code == 0  # nothing left, no FSD205 about the rewrite


NESTED = """\
from torch.distributed.fsdp import fully_shard

def train(model, batches):
    fully_shard(model)
    with model.no_sync():
        model(batches[0]).backward()
        with model.no_sync():
            model(batches[1]).backward()
        model(batches[2]).backward()
"""


def test_an_unsafe_fix_is_marked_and_applied_only_with_unsafe_fixes(tmp_path, monkeypatch):
    """The inner `no_sync()` of two: rewritten, its `finally` would turn sync on inside the outer
    block (FSDP1 restored the state it found, off), so its fix is unsafe."""
    (tmp_path / "train.py").write_text(NESTED)
    monkeypatch.chdir(tmp_path)
    shown = run_cli(["--format", "concise", "--select", "FSD203", "--no-cache", "."])
    assert shown.out.splitlines() == [
        "train.py:5:10: FSD203 [*] `.no_sync()` is FSDP1 API, but `model` is sharded with FSDP2's fully_shard",
        "train.py:7:14: FSD203 [-] `.no_sync()` is FSDP1 API, but `model` is sharded with FSDP2's fully_shard",
        "Found 2 findings (2 FSD203).",
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    opted_in = run_cli(["--format", "concise", "--select", "FSD203", "--no-cache", "--unsafe-fixes", "."])
    assert opted_in.out.count("FSD203 [*]") == 2 and "[*] 2 fixable" in opted_in.out

    safe = run_cli(["--fix", "--select", "FSD203", "--no-cache", "."])
    assert "Fixed 1 finding (1 FSD203) (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in safe.err
    after_safe = (tmp_path / "train.py").read_text()
    assert after_safe.count("no_sync()") == 1 and after_safe.count("finally:") == 1
    outcome, backwards, sync = _run(after_safe)  # the inner block still FSDP1's no_sync()
    assert backwards == [(0, False), (1, False), (2, False)] and sync is True  # the safe fix kept it

    unsafe = run_cli(["--fix", "--unsafe-fixes", "--select", "FSD203", "--no-cache", "."])
    assert unsafe.code == 0 and "Fixed 1 finding (1 FSD203)." in unsafe.err
    assert "no_sync" not in (tmp_path / "train.py").read_text()
    assert _run((tmp_path / "train.py").read_text())[1] == [(0, False), (1, False), (2, True)]  # why it is unsafe


def test_diff_leaves_out_unsafe_fixes_unless_asked(tmp_path, monkeypatch):
    (tmp_path / "train.py").write_text(NESTED)
    monkeypatch.chdir(tmp_path)
    run = run_cli(["--diff", "--select", "FSD203", "--no-cache", "."])
    assert run.out.count("+    try:") == 1 and "+        try:" not in run.out
    assert "Would fix 1 finding (1 FSD203) (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in run.err
    both = run_cli(["--diff", "--unsafe-fixes", "--select", "FSD203", "--no-cache", "."])
    assert "+        try:" in both.out and "Would fix 2 findings (2 FSD203)." in both.err
    assert (tmp_path / "train.py").read_text() == NESTED


def test_a_fix_is_applied_whole_or_not_at_all():
    """A fix of several edits, one of which overlaps an earlier fix, is left out entirely."""
    text = "a = 1\nb = 2\nc = 3\n"
    first = Fix.safe(Edit(1, 1, 1, 2, "x"))
    clashing = Fix.safe(Edit(1, 1, 1, 2, "y"), Edit(3, 1, 3, 2, "z"))
    apart = Fix.unsafe(Edit(2, 1, 2, 1, "# "), Edit(3, 6, 3, 6, "  # three"))
    fixed, applied = fixes.apply_fixes(text, [first, clashing, apart])
    assert applied == [first, apart]
    assert fixed == "x = 1\n# b = 2\nc = 3  # three\n"


def test_json_and_sarif_carry_the_applicability(tmp_path, monkeypatch):
    import json

    (tmp_path / "train.py").write_text(NESTED)
    monkeypatch.chdir(tmp_path)
    records = json.loads(run_cli(["--format", "json", "--no-cache", "--select", "FSD203", "."]).out)
    assert [r["fix"]["applicability"] for r in records] == ["safe", "unsafe"]
    assert [len(r["fix"]["edits"]) for r in records] == [2, 2]
    sarif = json.loads(run_cli(["--format", "sarif", "--no-cache", "--select", "FSD203", "."]).out)
    fixes_ = [result["fixes"][0] for result in sarif["runs"][0]["results"]]
    assert [f["properties"]["applicability"] for f in fixes_] == ["safe", "unsafe"]
    assert [len(f["artifactChanges"][0]["replacements"]) for f in fixes_] == [2, 2]
