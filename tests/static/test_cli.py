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
    assert out.rstrip().endswith("Found 2 findings (1 FSD201, 1 FSD301).\n[*] 1 fixable with the `--fix` option.")
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
            "fix": {"edits": [{"line": 6, "column": 12, "end_line": 6, "end_column": 20, "text": ""}], "applicability": "safe"},
            "related": [],
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


def test_discovery_keeps_project_packages_named_like_packaging_output_and_gitignored_files_git_tracks(tmp_path):
    """`build/` and `dist/` are packaging output unless they are packages of the project; a
    path a `.gitignore` matches is linted where git tracks it (git's own rule)."""
    import shutil
    import subprocess

    write_tree(
        tmp_path,
        {
            ".gitignore": "legacy/\n",
            "pkg/__init__.py": "",
            "pkg/dist/__init__.py": "",
            "pkg/dist/bad.py": BYPASS,
            "dist/bad.py": BYPASS,
            "build/lib/pkg/__init__.py": "",
            "build/lib/pkg/bad.py": BYPASS,
            "legacy/tracked.py": BYPASS,
            "legacy/untracked.py": BYPASS,
        },
    )
    os.chdir(tmp_path)
    found = {r["path"] for r in json.loads(run_cli(["--format", "json", "."]).out)}
    assert found == {os.path.join("pkg", "dist", "bad.py")}
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q"], check=True)
    subprocess.run(["git", "add", "-f", os.path.join("legacy", "tracked.py")], check=True)
    found = {r["path"] for r in json.loads(run_cli(["--format", "json", "."]).out)}
    assert found == {os.path.join("pkg", "dist", "bad.py"), os.path.join("legacy", "tracked.py")}


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


# --- Conventions a ruff or flake8 user reaches for (issue 14) ---------------------------------

HELPER = """\
from torch.distributed.fsdp import fully_shard


def shard(model):
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    return model
"""
USES_HELPER = """\
from helpers import shard

model = shard(Model())
out = model.forward(x)
"""


def _subprocess(args, cwd, stdin=None, env=None):
    import subprocess
    import sys

    code = "import sys\nfrom fsdp_lint.frontends.cli import main\nsys.exit(main())"
    environment = {**os.environ, "NO_COLOR": "", "FORCE_COLOR": "", **(env or {})}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=300, env=environment)


def test_a_closed_pipe_ends_the_run_quietly(tmp_path):
    """`fsdp-lint ... | head -1` through a real shell pipe: one line, no error, exit 0 (ruff's)."""
    import shlex
    import subprocess
    import sys

    write_tree(tmp_path, {f"bad{i}.py": BYPASS for i in range(300)})
    command = f"{shlex.quote(sys.executable)} -m fsdp_lint --no-cache {shlex.quote(str(tmp_path))} | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=300)
    assert done.stdout.count("\n") == 1 and "FSD201" in done.stdout
    assert done.stderr == ""
    assert done.returncode == 0


def test_stdin_is_linted_as_the_named_file_of_its_project(tmp_path):
    """The buffer replaces the file on disk; the name picks the config and per-file ignores, and
    the project's other modules still count (helpers.shard shards its argument)."""
    write_tree(tmp_path, {
        ".git/HEAD": "", "pyproject.toml": '[tool.fsdp-lint]\nper-file-ignores = { "tests/*" = ["FSD201"] }\n',
        "src/helpers.py": HELPER, "src/train.py": "x = 1\n", "tests/test_train.py": "x = 1\n",
    })
    run = _subprocess(["--format", "concise", "-", "--stdin-filename", "src/train.py"], tmp_path, stdin=USES_HELPER)
    assert run.returncode == 1, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 3 and lines[0].startswith("src/train.py:4:7: FSD201 [*] ") and lines[1] == "Found 1 finding (1 FSD201)."
    assert lines[2] == "[*] 1 fixable with the `--fix` option."
    ignored = _subprocess(["--format", "concise", "--stdin-filename", "tests/test_train.py"], tmp_path, stdin=USES_HELPER.replace("from helpers", "from src.helpers"))
    assert ignored.returncode == 0, ignored.stdout + ignored.stderr
    from_elsewhere = _subprocess(["--format", "concise", "-", "--stdin-filename", str(tmp_path / "src" / "train.py")], tmp_path.parent, stdin=USES_HELPER)
    assert from_elsewhere.returncode == 1 and f"{tmp_path / 'src' / 'train.py'}:4:7: FSD201" in from_elsewhere.stdout
    assert not (tmp_path.parent / ".fsdp_lint_cache").exists()


def test_output_file_exit_zero_and_color(tmp_path):
    write_tree(tmp_path, {"bad.py": BYPASS})
    report = tmp_path / "report.json"
    run = run_cli(["--format", "json", "-o", str(report), "--exit-zero", str(tmp_path / "bad.py")])
    assert run.code == 0 and run.out == ""
    assert [r["code"] for r in json.loads(report.read_text())] == ["FSD201"]
    coloured = _subprocess(["--color", "always", "bad.py"], tmp_path, env={"NO_COLOR": "1"})
    assert "\x1b[" in coloured.stdout and coloured.returncode == 1
    plain = _subprocess(["--color", "never", "bad.py"], tmp_path, env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in plain.stdout
    assert "\x1b[" in _subprocess(["bad.py"], tmp_path, env={"FORCE_COLOR": "1"}).stdout
    assert run_cli(["--color", "sometimes", "bad.py"]).code == 2


def test_add_noqa_silences_every_current_finding_and_keeps_the_rest(tmp_path):
    source = (
        "from torch.distributed.fsdp import fully_shard\r\n"
        "fully_shard(model)\r\n"
        "a = model.forward(1)  # noqa: E501\r\n"
        "b = model.forward(2)  # a comment\r\n"
        "c = model.forward(3) + \\\r\n"
        "    model.forward(4)\r\n"
        's = """%s\r\n'
        '""" % model.forward(5)\r\n'
    )
    path = tmp_path / "train.py"
    path.write_bytes(source.encode())
    run = run_cli(["--add-noqa", str(path)])
    assert run.code == 1  # line 5 ends in a continuation: no comment can go there
    assert f"{path}:5: cannot add `# noqa: FSD201`" in run.err
    assert "Added 4 noqa directives in 1 file." in run.err
    assert path.read_bytes().decode() == source.replace("# noqa: E501", "# noqa: E501, FSD201").replace(
        "# a comment", "# a comment  # noqa: FSD201").replace("model.forward(4)", "model.forward(4)  # noqa: FSD201").replace(
        "model.forward(5)", "model.forward(5)  # noqa: FSD201")
    left = json.loads(run_cli(["--format", "json", str(path)]).out)
    assert [(r["line"], r["code"]) for r in left] == [(5, "FSD201")]
    assert run_cli(["--add-noqa", "--fix", str(path)]).code == 2


def test_show_settings_names_each_source(tmp_path, monkeypatch):
    write_tree(tmp_path, {".git/HEAD": "", "pyproject.toml": '[tool.fsdp-lint]\nignore = ["FSD101"]\nrespect-gitignore = true\n[tool.fsdp-lint.rules.FSD202]\nextend-remapping-calls = ["wrap"]\n', "a.py": BYPASS})
    monkeypatch.chdir(tmp_path)
    run = run_cli(["--show-settings", "--ignore", "FSD3", "."])
    assert run.code == 0, run.err
    config = str(tmp_path / "pyproject.toml")
    assert f"# configuration file: {config}" in run.out
    lines = {line.split(" = ")[0]: line for line in run.out.splitlines() if " = " in line}
    assert lines["select"].startswith('select = ["FSD"]') and lines["select"].endswith("# default")
    assert lines["ignore"].startswith('ignore = ["FSD101", "FSD3"]') and lines["ignore"].endswith(f"# {config} + --ignore")
    assert lines["respect-gitignore"].endswith(f"# {config}")  # set in the file, though to the default
    assert lines["force-exclude"].endswith("# default")
    assert lines["extend-remapping-calls"].startswith('extend-remapping-calls = ["wrap"]')
    assert f"# cache: {tmp_path / '.fsdp_lint_cache'}" in run.out
    assert not (tmp_path / ".fsdp_lint_cache").exists()  # nothing was linted


def test_verbose_names_kept_and_skipped_files_and_timings(tmp_path):
    write_tree(tmp_path, {".git/HEAD": "", ".gitignore": "gen/\n", "a.py": BYPASS, "plain.py": "x = 1\n", "gen/b.py": BYPASS, "vendor/c.py": BYPASS})
    run = _subprocess(["-v", "--exclude", "vendor", "."], tmp_path)
    assert run.returncode == 1
    for expected in ("skip gen/ (.gitignore)", "skip vendor/ (exclude)", "analyse a.py", "syntax check only plain.py", "discovery: 2 files", "total: "):
        assert expected in run.stderr, expected
    assert "skip" not in _subprocess(["."], tmp_path).stderr


@pytest.mark.parametrize("flag", ["--select", "--extend-select", "--ignore"])
def test_an_unknown_code_is_a_usage_error_naming_the_closest(tmp_path, flag):
    write_tree(tmp_path, {"bad.py": BYPASS})
    run = run_cli([flag, "FSD209", str(tmp_path)])
    assert run.code == 2 and run.out == ""
    assert f"{flag}: unknown code or prefix 'FSD209' (closest: FSD206, FSD205, FSD204;" in run.err
    assert run_cli([flag, "FSD2", str(tmp_path)]).code in (0, 1)


def test_an_unknown_code_in_the_config_names_the_closest(tmp_path, monkeypatch):
    write_tree(tmp_path, {".git/HEAD": "", "pyproject.toml": '[tool.fsdp-lint]\nselect = ["FSD2011"]\n', "a.py": "x = 1\n"})
    monkeypatch.chdir(tmp_path)
    run = run_cli(["."])
    assert run.code == 2 and "select: unknown code or prefix 'FSD2011' (closest: FSD201," in run.err


def test_no_python_file_is_a_warning(tmp_path):
    (tmp_path / "empty").mkdir()
    write_tree(tmp_path, {"docs/readme.txt": "x"})
    for target in ("empty", "docs"):
        run = run_cli([str(tmp_path / target)])
        assert run.code == 0
        assert f"fsdp-lint: warning: no Python files found under {tmp_path / target}" in run.err


def test_statistics_follow_the_format(tmp_path):
    write_tree(tmp_path, {"bad.py": BYPASS, "save.py": SAVE})
    records = json.loads(run_cli(["--statistics", "--format", "json", str(tmp_path)]).out)
    assert records == [
        {"code": "FSD201", "name": "forward-bypass", "count": 1, "fixable": True},
        {"code": "FSD301", "name": "save-sharded-state", "count": 1, "fixable": False},
    ]
    assert run_cli(["--statistics", "--format", "sarif", str(tmp_path)]).code == 2


def test_help_names_commands_exit_codes_and_configuration():
    run = run_cli(["--help"])
    assert run.code == 0
    for part in ("check [PATH ...]", "rule CODE", "rules ", "exit codes:", "0  no findings", "1  findings",
                 "2  usage, configuration or internal error", "[tool.fsdp-lint] in the nearest pyproject.toml"):
        assert part in run.out, part
    assert run_cli(["check", "--help"]).out == run.out
    assert _subprocess(["-V"], ".").stdout.startswith("fsdp-lint ")
    rule_help = run_cli(["rule", "--help"])
    assert rule_help.code == 0 and rule_help.out.startswith("usage: fsdp-lint rule") and "no contract" not in rule_help.err
    assert run_cli(["rules", "--help"]).out.startswith("usage: fsdp-lint rules")
    assert run_cli(["rule"]).code == 2


def test_the_cache_goes_to_the_project_root(tmp_path, monkeypatch):
    write_tree(tmp_path, {"repo/.git/HEAD": "", "repo/pkg/pyproject.toml": "[tool.fsdp-lint]\n", "repo/pkg/src/a.py": BYPASS,
                          "repo/other/b.py": BYPASS, "loose/c.py": BYPASS})
    monkeypatch.chdir(tmp_path / "repo" / "pkg" / "src")
    run_cli(["a.py"])
    assert (tmp_path / "repo" / "pkg" / ".fsdp_lint_cache").is_dir()  # beside the configuring pyproject.toml
    monkeypatch.chdir(tmp_path / "repo" / "other")
    run_cli(["."])
    assert (tmp_path / "repo" / ".fsdp_lint_cache").is_dir()  # the repository root
    monkeypatch.chdir(tmp_path / "loose")
    run_cli(["c.py"])
    assert (tmp_path / "loose" / ".fsdp_lint_cache").is_dir()  # neither: here
    assert not (tmp_path / "repo" / "pkg" / "src" / ".fsdp_lint_cache").exists()
    assert not (tmp_path / "repo" / "other" / ".fsdp_lint_cache").exists()
    run_cli(["--cache-dir", str(tmp_path / "mine"), "c.py"])
    assert (tmp_path / "mine").is_dir()
