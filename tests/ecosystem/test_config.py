"""`[tool.fsdp-lint]` in pyproject.toml, found from the linted paths, overridden by flags."""

from __future__ import annotations

import json

import pytest

from tests.ecosystem.samples import CLEAN, TRAIN
from tests.static.helpers import run_cli, write_tree


def codes(run):
    return sorted((r["path"].replace("\\", "/"), r["code"]) for r in json.loads(run.out))


def project(tmp_path, config: str, files=None):
    write_tree(tmp_path, {".git/HEAD": "ref", "pyproject.toml": config, **(files or {"src/train.py": TRAIN})})
    return tmp_path


def test_config_is_found_by_walking_up_from_the_linted_path(tmp_path, monkeypatch):
    project(tmp_path, '[tool.fsdp-lint]\nselect = ["FSD2"]\nignore = ["FSD202"]\n')
    monkeypatch.chdir(tmp_path / "src")
    assert codes(run_cli(["--format", "json", "train.py"])) == [("train.py", "FSD201"), ("train.py", "FSD201")]


def test_search_stops_at_the_repository_root(tmp_path, monkeypatch):
    write_tree(tmp_path, {"pyproject.toml": '[tool.fsdp-lint]\nselect = ["FSD2"]\n', "repo/.git/HEAD": "", "repo/train.py": TRAIN})
    monkeypatch.chdir(tmp_path / "repo")
    assert {c for _, c in codes(run_cli(["--format", "json", "."]))} == {"FSD201", "FSD202", "FSD301"}


def test_pyproject_without_the_table_is_skipped_and_underscore_alias_works(tmp_path, monkeypatch):
    write_tree(tmp_path, {"pyproject.toml": '[tool.fsdp_lint]\nignore = ["FSD2"]\n', "pkg/pyproject.toml": "[tool.black]\n", "pkg/t.py": TRAIN})
    monkeypatch.chdir(tmp_path)
    assert {c for _, c in codes(run_cli(["--format", "json", "pkg"]))} == {"FSD301"}


@pytest.mark.parametrize(
    "flags, expected",
    [
        ([], {"FSD201"}),                                          # config: select FSD2, ignore FSD202
        (["--select", "FSD301"], {"FSD301"}),                      # --select replaces select and extend-select
        (["--extend-select", "FSD3"], {"FSD201", "FSD301"}),
        (["--ignore", "FSD201"], set()),                           # ignores add up
        (["--isolated"], {"FSD201", "FSD202", "FSD301"}),
    ],
)
def test_flags_override_the_config(tmp_path, monkeypatch, flags, expected):
    project(tmp_path, '[tool.fsdp-lint]\nselect = ["FSD2"]\nignore = ["FSD202"]\n')
    monkeypatch.chdir(tmp_path)
    assert {c for _, c in codes(run_cli(["--format", "json", *flags, "."]))} == expected


def test_extend_select_in_config(tmp_path, monkeypatch):
    project(tmp_path, '[tool.fsdp-lint]\nselect = ["FSD201"]\nextend-select = ["FSD301"]\n')
    monkeypatch.chdir(tmp_path)
    assert {c for _, c in codes(run_cli(["--format", "json", "."]))} == {"FSD201", "FSD301"}


def test_per_file_ignores_relative_to_the_config_and_negated(tmp_path, monkeypatch):
    config = '[tool.fsdp-lint]\nper-file-ignores = { "tests/*" = ["FSD2"], "!src/*" = ["FSD301"] }\n'
    project(tmp_path, config, {"src/a.py": TRAIN, "tests/b.py": TRAIN, "scripts/c.py": TRAIN})
    monkeypatch.chdir(tmp_path / "src")  # patterns stay relative to pyproject.toml's directory
    found = codes(run_cli(["--format", "json", ".."]))
    assert {c for p, c in found if p.endswith("src/a.py")} == {"FSD201", "FSD202", "FSD301"}
    assert {c for p, c in found if p.endswith("tests/b.py")} == set()          # FSD2 here, FSD301 outside src
    assert {c for p, c in found if p.endswith("scripts/c.py")} == {"FSD201", "FSD202"}


def test_per_file_ignore_beats_an_explicit_select(tmp_path, monkeypatch):
    project(tmp_path, '[tool.fsdp-lint]\nper-file-ignores = { "tests/" = ["FSD"] }\n', {"tests/b.py": TRAIN})
    monkeypatch.chdir(tmp_path)
    assert codes(run_cli(["--format", "json", "--select", "FSD201", "."])) == []


def test_exclude_extend_exclude_and_force_exclude(tmp_path, monkeypatch):
    config = '[tool.fsdp-lint]\nexclude = ["generated"]\nextend-exclude = ["third_party/"]\n'
    project(tmp_path, config, {"a.py": TRAIN, "generated/g.py": TRAIN, "third_party/t.py": TRAIN})
    monkeypatch.chdir(tmp_path)
    assert {p for p, _ in codes(run_cli(["--format", "json", "."]))} == {"a.py"}
    assert {p for p, _ in codes(run_cli(["--format", "json", "--exclude", "a.py", "."]))} == {"generated/g.py"}
    # Files named explicitly (as pre-commit passes them) are linted unless force-exclude is on.
    assert {p for p, _ in codes(run_cli(["--format", "json", "third_party/t.py"]))} == {"third_party/t.py"}
    assert run_cli(["--force-exclude", "third_party/t.py", "a.py", "--format", "json"]).code == 1
    assert {p for p, _ in codes(run_cli(["--force-exclude", "--format", "json", "third_party/t.py", "a.py"]))} == {"a.py"}
    assert run_cli(["--force-exclude", "third_party/t.py"]).code == 0


def test_rule_option_extends_the_rules_builtin_list(tmp_path, monkeypatch):
    train = """\
import torch
from torch.distributed.fsdp import fully_shard

model = Model()
optimizer = torch.optim.AdamW(model.parameters())
fully_shard(model)
model, optimizer = wrap_for_training(model, optimizer)
"""
    project(tmp_path, '[tool.fsdp-lint]\n', {"t.py": train})
    monkeypatch.chdir(tmp_path)
    assert codes(run_cli(["--format", "json", "."])) == [("t.py", "FSD202")]
    (tmp_path / "pyproject.toml").write_text('[tool.fsdp-lint.rules.FSD202]\nextend-remapping-calls = ["wrap_for_training"]\n')
    assert codes(run_cli(["--format", "json", "."])) == []


@pytest.mark.parametrize(
    "config, named",
    [
        ('selct = ["FSD"]', "selct: unknown key"),
        ('select = "FSD"', "select: must be a list of strings"),
        ('ignore = ["E501"]', "ignore: unknown code or prefix 'E501'"),
        ('respect-gitignore = "yes"', "respect-gitignore: must be true or false"),
        ('per-file-ignores = ["tests/*"]', "per-file-ignores: must be a table"),
        ('[tool.fsdp-lint.rules.FSD999]\nx = []', "rules.FSD999: no static rule has this code"),
        ('[tool.fsdp-lint.rules.FSD202]\nextend-optimizers = []', "rules.FSD202.extend-optimizers: unknown option of FSD202"),
        ("select = [", "(file): not valid TOML"),
    ],
)
def test_a_bad_key_or_value_is_a_usage_error_naming_key_and_file(tmp_path, monkeypatch, config, named):
    project(tmp_path, f"[tool.fsdp-lint]\n{config}\n", {"clean.py": CLEAN})
    monkeypatch.chdir(tmp_path)
    run = run_cli(["."])
    assert run.code == 2
    assert f"{tmp_path / 'pyproject.toml'}: [tool.fsdp-lint] {named}" in run.err
    assert run.out == ""


def test_explicit_config_path_and_a_file_without_the_table(tmp_path, monkeypatch):
    write_tree(tmp_path, {"conf/lint.toml": '[tool.fsdp-lint]\nselect = ["FSD301"]\n', "other.toml": "[tool.x]\n", "t.py": TRAIN})
    monkeypatch.chdir(tmp_path)
    assert {c for _, c in codes(run_cli(["--config", "conf/lint.toml", "--format", "json", "t.py"]))} == {"FSD301"}
    run = run_cli(["--config", "other.toml", "t.py"])
    assert run.code == 2 and "other.toml: [tool.fsdp-lint] (file): has no [tool.fsdp-lint] table" in run.err
