"""The grammar is the project's, not the interpreter's: a file that only a newer Python than the
one running fsdp-lint can parse gets FSD002 ("needs Python 3.12 to parse; run fsdp-lint under
3.12+"), not FSD001, and does not fail the run; where the project declares an older Python
(`target-version`, `requires-python`) it is FSD001; a genuine syntax error stays FSD001.

Run under Python 3.11 (the project's CI), these parse Python 3.12 code; under 3.12+ that code
parses, and the tests check that nothing is reported instead."""

from __future__ import annotations

import json
import sys

import pytest

from fsdp_lint.engine import newer_syntax, syntax_check
from fsdp_lint.frontends import config
from tests.static.helpers import run_cli, write_tree

BEFORE_3_12 = sys.version_info < (3, 12)
needs_older_python = pytest.mark.skipif(not BEFORE_3_12, reason="Python 3.12 syntax parses here")

# Python 3.12 only: a PEP 701 f-string (the quotes reused inside) and a `type` statement.
PY312 = '''\
from torch.distributed.fsdp import fully_shard

type Batch = dict[str, list[int]]


def describe(config: dict) -> str:
    return f"{config["name"]}: {", ".join(config["layers"])}"


def train(model):
    fully_shard(model)
    model(1)
'''
# The same, in a file the byte scan skips (no FSDP2 name): the syntax check judges it, not the analysis.
PY312_PLAIN = PY312.replace("from torch.distributed.fsdp import fully_shard\n", "").replace("fully_shard(model)", "pass")
BYPASS = "from torch.distributed.fsdp import fully_shard\nfully_shard(model)\nmodel.forward(x)\n"


def _project(tmp_path, monkeypatch, pyproject: str, files):
    write_tree(tmp_path, {".git/HEAD": "", "pyproject.toml": pyproject, **files})
    monkeypatch.chdir(tmp_path)


def _findings(args):
    run = run_cli(["--format", "json", "--no-cache", *args])
    assert "Traceback" not in run.err
    return run, {(r["path"], r["code"]): r for r in json.loads(run.out)}


RUNS = {"one process": ["--jobs", "1"], "every core": ["--jobs", "0"]}


@needs_older_python
@pytest.mark.parametrize("run_kind", sorted(RUNS))
def test_newer_syntax_of_the_project_is_not_a_syntax_error_and_does_not_fail_the_run(tmp_path, monkeypatch, run_kind):
    _project(tmp_path, monkeypatch, '[project]\nname = "p"\nrequires-python = ">=3.12"\n', {"train.py": PY312, "plain.py": PY312_PLAIN})
    monkeypatch.setattr(syntax_check, "MIN_FILES", 0)  # every core: plain.py's check in a forked process
    run, found = _findings([*RUNS[run_kind], "."])
    assert sorted(found) == [("plain.py", "FSD002"), ("train.py", "FSD002")]
    for path in ("train.py", "plain.py"):
        message = found[(path, "FSD002")]["message"]
        assert "needs Python 3.12 to parse" in message and "run fsdp-lint under 3.12+" in message
        assert "syntax error" not in message
    assert found[("train.py", "FSD002")]["line"] == 3  # the first construct: the `type` statement
    assert run.code == 0, run.err  # it alone does not fail the run

    text = run_cli(["--no-cache", *RUNS[run_kind], "."])
    assert text.code == 0 and "train.py:3:1: FSD002 needs Python 3.12 to parse (a `type` statement)" in text.out


@needs_older_python
def test_without_a_declared_python_it_is_fsd002_and_other_findings_still_fail(tmp_path, monkeypatch):
    _project(tmp_path, monkeypatch, '[project]\nname = "p"\n', {"train.py": PY312, "bad.py": BYPASS})
    run, found = _findings(["."])
    assert sorted(found) == [("bad.py", "FSD201"), ("train.py", "FSD002")]
    assert run.code == 1


@needs_older_python
@pytest.mark.parametrize(
    "pyproject",
    [
        '[project]\nname = "p"\nrequires-python = ">=3.11"\n',
        '[project]\nname = "p"\nrequires-python = ">=3.12"\n[tool.fsdp-lint]\ntarget-version = "py311"\n',
    ],
    ids=["requires-python", "target-version"],
)
def test_syntax_newer_than_the_project_declares_is_a_syntax_error(tmp_path, monkeypatch, pyproject):
    _project(tmp_path, monkeypatch, pyproject, {"train.py": PY312})
    run, found = _findings(["."])
    assert list(found) == [("train.py", "FSD001")]
    assert found[("train.py", "FSD001")]["message"] == (
        "cannot analyse this file: syntax error: a `type` statement needs Python 3.12, but the project "
        "supports Python 3.11 (its target-version or requires-python)"
    )
    assert run.code == 1


def test_a_genuine_syntax_error_stays_fsd001_at_its_own_line(tmp_path, monkeypatch):
    broken = PY312 + "\ndef later(:\n    pass\n"
    _project(tmp_path, monkeypatch, '[project]\nname = "p"\nrequires-python = ">=3.12"\n', {"train.py": broken, "old.py": "def f(:\n"})
    run, found = _findings(["."])
    assert sorted(found) == [("old.py", "FSD001"), ("train.py", "FSD001")]
    assert found[("train.py", "FSD001")]["line"] == 14
    assert "syntax error" in found[("train.py", "FSD001")]["message"]
    assert run.code == 1


@needs_older_python
def test_the_cache_answers_for_the_declared_python(tmp_path, monkeypatch):
    """Declaring another Python changes the answer of a warm run as of a cold one."""
    _project(tmp_path, monkeypatch, '[project]\nname = "p"\nrequires-python = ">=3.12"\n', {"train.py": PY312})
    first = run_cli(["--format", "concise", "--cache-dir", ".cache", "."])
    assert "FSD002" in first.out and first.code == 0
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\nrequires-python = ">=3.10"\n')
    second = run_cli(["--format", "concise", "--cache-dir", ".cache", "."])
    assert "FSD001" in second.out and "FSD002" not in second.out and second.code == 1


def test_under_a_newer_python_the_same_files_are_analysed(tmp_path, monkeypatch):
    _project(tmp_path, monkeypatch, '[project]\nname = "p"\nrequires-python = ">=3.12"\n', {"train.py": PY312.replace("model(1)", "model.forward(1)")})
    run, found = _findings(["."])
    if BEFORE_3_12:
        assert list(found) == [("train.py", "FSD002")]
    else:
        assert list(found) == [("train.py", "FSD201")]


@pytest.mark.parametrize(
    "value, expected",
    [(">=3.12", (3, 12)), ("~=3.12.1", (3, 12)), ("==3.12.*", (3, 12)), (">3.11", (3, 11)), (">=3.10, <4", (3, 10)), ("<4", None)],
)
def test_requires_python_gives_its_lower_bound(tmp_path, monkeypatch, value, expected):
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "p"\nrequires-python = "{value}"\n')
    assert config.load(str(tmp_path / "pyproject.toml")).target_version == expected
    assert config.unconfigured([str(tmp_path)]).target_version == expected


def test_target_version_wins_and_a_bad_one_is_a_usage_error(tmp_path, monkeypatch):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nrequires-python = ">=3.10"\n[tool.fsdp-lint]\ntarget-version = "py313"\n')
    assert config.load(str(pyproject)).target_version == (3, 13)
    pyproject.write_text('[tool.fsdp-lint]\ntarget-version = "3.12"\n')
    monkeypatch.chdir(tmp_path)
    run = run_cli(["."])
    assert run.code == 2 and 'target-version: must be a Python version like "py312"' in run.err


# (source, the version it needs, what the finding names): each construct a newer Python added.
CONSTRUCTS = [
    ("try:\n    pass\nexcept* ValueError:\n    pass\n", (3, 11), "`except*`"),
    ("def f(*args: *Ts): pass\nx: tuple[*Ts]\n", (3, 11), "a starred subscript or annotation, `X[*Ts]`"),
    ("type Point = tuple[float, float]\n", (3, 12), "a `type` statement"),
    ("def first[T](xs: list[T]) -> T:\n    return xs[0]\n", (3, 12), "type parameters, `def f[T]`"),
    ("class Box[T]:\n    pass\n", (3, 12), "type parameters, `def f[T]`"),
    ("x = f'{d['key']}'\n", (3, 12), "a PEP 701 f-string"),
    ("x = f'{a!r }'\n", (3, 12), "a PEP 701 f-string"),
    ("x = f'{\"\\n\".join(parts)}'\n", (3, 12), "a PEP 701 f-string"),
    ("x = f'''{a # a comment\n}'''\n", (3, 12), "a PEP 701 f-string"),
    ("x = f'{v:{w:{p}}}'\n", (3, 12), "a PEP 701 f-string"),
    ("class Box[T = int]:\n    pass\n", (3, 13), "a type parameter default, `[T = int]`"),
    ("x = t'{name}'\n", (3, 14), 'a template string, `t"..."`'),
    ("try:\n    pass\nexcept ValueError, TypeError:\n    pass\n", (3, 14), "`except A, B:` without parentheses"),
]


@pytest.mark.parametrize("source, version, what", CONSTRUCTS, ids=[c[2] + str(c[1]) for c in CONSTRUCTS])
def test_each_newer_construct_is_named_with_its_version(source, version, what):
    if sys.version_info[:2] >= version:
        pytest.skip("this Python parses it")
    reading = newer_syntax.read(source)
    assert reading.error is None and reading.needs == version
    assert what in [c.what for c in reading.constructs]


@pytest.mark.parametrize(
    "source",
    ["x = f'{d[\"key\"]}'\n", "x = f'{\"#\"}'\n", "case = [1]\nmatch case:\n    case [*rest]:\n        pass\n", "type = 1\nprint(type)\n"],
)
def test_what_this_python_parses_names_no_newer_construct(source):
    reading = newer_syntax.read(source)
    assert reading.constructs == () and reading.error is None
