"""`[tool.fsdp-lint.analysis]`: sharding helpers and optimizers from installed packages, which the
analysis cannot read, declared by their qualified names, through the command line."""

from __future__ import annotations

import json

import pytest

from tests.static.helpers import run_cli, write_tree

# mylib is installed, not linted: without the declarations nothing here is sharded or an optimizer.
TRAIN = """\
from mylib.optim import Lion
from mylib.parallel import apply_fsdp as shard

model = Model()
optimizer = Lion(model.parameters())
shard(model)
model.forward(x)
"""
HELPER = """\
import mylib.parallel

def setup(model):
    mylib.parallel.apply_fsdp(model)
    return model
"""
CALLER = """\
from helper import setup

model = setup(Model())
model.forward(x)
"""


def codes(tmp_path, monkeypatch, config: str, files):
    write_tree(tmp_path, {".git/HEAD": "ref", "pyproject.toml": config, **files})
    monkeypatch.chdir(tmp_path)
    run = run_cli(["--format", "json", "--no-cache", "."])
    assert run.code in (0, 1), run.err
    return sorted((r["path"], r["code"]) for r in json.loads(run.out))


ANALYSIS = '[tool.fsdp-lint.analysis]\nextra-shard-functions = ["mylib.parallel.apply_fsdp"]\nextra-optimizers = ["mylib.optim.Lion"]\n'


def test_declared_sharding_function_and_optimizer_are_seen(tmp_path, monkeypatch):
    assert codes(tmp_path, monkeypatch, "[tool.fsdp-lint]\n", {"train.py": TRAIN}) == []
    (tmp_path / "pyproject.toml").write_text(ANALYSIS)
    assert codes(tmp_path, monkeypatch, ANALYSIS, {"train.py": TRAIN}) == [("train.py", "FSD201"), ("train.py", "FSD202")]


def test_files_that_only_call_a_declared_sharding_function_are_kept_by_the_scan(tmp_path, monkeypatch):
    """helper.py names no FSDP2 API; the byte scan keeps it for the declared name, and its
    callers through it, with the same findings as parsing every file."""
    files = {"helper.py": HELPER, "caller.py": CALLER}
    assert codes(tmp_path, monkeypatch, ANALYSIS, files) == [("caller.py", "FSD201")]
    from fsdp_lint.analysis.declared_apis import DeclaredApis
    from fsdp_lint.engine.lint import LintOptions, lint_paths

    apis = DeclaredApis(frozenset({"mylib.parallel.apply_fsdp"}))
    found = [[(v.path, v.line, v.code) for v in lint_paths(["."], LintOptions(apis=apis, prefilter=p)).violations] for p in (True, False)]
    assert found[0] == found[1]


@pytest.mark.parametrize(
    "table, named",
    [
        ("extra-shard-function = []", "analysis.extra-shard-function: unknown key"),
        ('extra-optimizers = "mylib.optim.Lion"', "analysis.extra-optimizers: must be a list of strings"),
        ('extra-shard-functions = ["apply_fsdp"]', "analysis.extra-shard-functions: 'apply_fsdp' is not a qualified name"),
    ],
)
def test_a_bad_analysis_key_or_value_is_a_usage_error_naming_key_and_file(tmp_path, monkeypatch, table, named):
    write_tree(tmp_path, {".git/HEAD": "ref", "pyproject.toml": f"[tool.fsdp-lint.analysis]\n{table}\n", "clean.py": "x = 1\n"})
    monkeypatch.chdir(tmp_path)
    run = run_cli(["."])
    assert run.code == 2
    assert "pyproject.toml: [tool.fsdp-lint] " + named in run.err
