"""The command line as CI uses it: exit codes, formats, selection, suppression, discovery."""

from __future__ import annotations

import json
import os

import pytest

from tests.static.helpers import run_cli, run_subprocess, write_tree

BYPASS = """\
from torch.distributed.fsdp import fully_shard

for layer in model.layers:
    fully_shard(layer)
fully_shard(model)
out = model.forward(x)
"""
SAVE = """\
import torch
from torch.distributed.fsdp import fully_shard

fully_shard(model)
torch.save(model.state_dict(), "ckpt.pt")
"""


def test_exit_codes_clean_findings_and_usage(tmp_path):
    write_tree(tmp_path, {"clean.py": "x = 1\n", "bad.py": BYPASS})
    assert run_cli([str(tmp_path / "clean.py")]).code == 0
    found = run_cli([str(tmp_path)])
    assert found.code == 1
    assert f"{tmp_path / 'bad.py'}:6:7: FSD201" in found.out
    assert run_cli([str(tmp_path / "missing")]).code == 2
    assert run_cli(["--format", "nope", str(tmp_path)]).code == 2
    assert run_cli(["--select", "E501", str(tmp_path)]).code == 2


def test_text_output_has_source_caret_help_and_summary(tmp_path):
    write_tree(tmp_path, {"bad.py": BYPASS, "save.py": SAVE})
    out = run_cli([str(tmp_path)]).out
    assert "6 | out = model.forward(x)" in out
    assert "  |       ^^^^^^^^^^^^^^^^" in out
    assert "help: call the module itself: `model(...)`" in out
    assert out.rstrip().endswith("Found 2 findings (1 FSD201, 1 FSD301).")
    assert "\x1b[" not in out  # not a terminal, no colour


def test_colour_follows_force_color_and_no_color(tmp_path):
    write_tree(tmp_path, {"bad.py": BYPASS})
    coloured = run_subprocess([str(tmp_path)], env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[" in coloured.out
    plain = run_subprocess([str(tmp_path)], env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in plain.out


def test_json_output_fields(tmp_path):
    write_tree(tmp_path, {"bad.py": BYPASS})
    os.chdir(tmp_path)
    run = run_cli(["--format", "json", "."])
    records = json.loads(run.out)
    assert run.code == 1
    assert records == [
        {
            "path": "bad.py", "line": 6, "column": 7, "code": "FSD201", "name": "forward-bypass",
            "message": "`model.forward(...)` bypasses FSDP's forward hooks on a sharded module",
            "severity": "error", "end_line": 6, "end_column": 23,
            "help": "call the module itself: `model(...)`",
            "fix": {"line": 6, "column": 12, "end_line": 6, "end_column": 20, "text": ""},
        }
    ]


@pytest.mark.parametrize(
    "args, expected",
    [
        ([], {"FSD201", "FSD301"}),
        (["--select", "FSD2"], {"FSD201"}),
        (["--ignore", "FSD201"], {"FSD301"}),
        (["--select", "FSD201", "--ignore", "FSD2"], {"FSD201"}),
        (["--ignore", "FSD"], set()),
        (["--select", "fsd301,FSD201"], {"FSD201", "FSD301"}),
    ],
)
def test_select_and_ignore_by_code_or_prefix(tmp_path, args, expected):
    write_tree(tmp_path, {"bad.py": BYPASS, "save.py": SAVE})
    records = json.loads(run_cli(["--format", "json", *args, str(tmp_path)]).out)
    assert {r["code"] for r in records} == expected


@pytest.mark.parametrize(
    "comment, suppressed",
    [("# noqa", True), ("# noqa: FSD201", True), ("# NOQA:FSD201,FSD301", True), ("# noqa: FSD2", True),
     ("# noqa: FSD301", False), ("# noqa: E501", False), ("", False)],
)
def test_noqa_on_the_reported_line(tmp_path, comment, suppressed):
    write_tree(tmp_path, {"bad.py": BYPASS.replace("out = model.forward(x)", f"out = model.forward(x)  {comment}")})
    assert (run_cli([str(tmp_path)]).code == 0) == suppressed


def test_noqa_inside_a_string_suppresses_nothing(tmp_path):
    write_tree(tmp_path, {"bad.py": BYPASS.replace("out = model.forward(x)", 'out = model.forward("# noqa")')})
    assert run_cli([str(tmp_path)]).code == 1


def test_discovery_skips_vcs_venv_build_gitignored_and_excluded(tmp_path):
    write_tree(
        tmp_path,
        {
            ".git/HEAD": "ref",
            ".gitignore": "generated/\n*_pb2.py\n!keep_pb2.py\n",
            "src/bad.py": BYPASS,
            ".venv/lib/bad.py": BYPASS,
            "env2/pyvenv.cfg": "home = /usr\n",
            "env2/bad.py": BYPASS,
            "build/bad.py": BYPASS,
            "node_modules/bad.py": BYPASS,
            "generated/bad.py": BYPASS,
            "src/api_pb2.py": BYPASS,
            "src/keep_pb2.py": BYPASS,
            "vendor/bad.py": BYPASS,
            "notes.txt": BYPASS,
        },
    )
    os.chdir(tmp_path)
    paths = {r["path"] for r in json.loads(run_cli(["--format", "json", "--exclude", "vendor", "."]).out)}
    assert paths == {os.path.join("src", "bad.py"), os.path.join("src", "keep_pb2.py")}
    explicit = json.loads(run_cli(["--format", "json", "build/bad.py"]).out)
    assert [r["path"] for r in explicit] == ["build/bad.py"]
    everything = {r["path"] for r in json.loads(run_cli(["--format", "json", "--no-respect-gitignore", "src"]).out)}
    assert os.path.join("src", "api_pb2.py") in everything


def test_rule_and_rules_commands():
    page = run_cli(["rule", "FSD202"])
    assert page.code == 0
    for section in ("# optimizer-before-shard (FSD202)", "## What it does", "## Why is this bad?", "Use instead:"):
        assert section in page.out
    assert run_cli(["rule", "forward-bypass"]).out.startswith("# forward-bypass (FSD201)")
    assert run_cli(["rule", "FSD999"]).code == 2
    listing = run_cli(["rules"]).out
    for code in ("FSD001", "FSD101", "FSD102", "FSD201", "FSD202", "FSD301"):
        assert code in listing


def test_python_dash_m_entry_point(tmp_path):
    import subprocess
    import sys

    write_tree(tmp_path, {"bad.py": BYPASS})
    done = subprocess.run([sys.executable, "-m", "fsdp_lint", "--format", "concise", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 1 and "FSD201" in done.stdout
