"""The flake8 plugin, run by flake8 itself in a subprocess, as CI and editors run it."""

from __future__ import annotations

import subprocess
import sys
from typing import List, Optional, Set, Tuple

from fsdp_lint.engine.registry import all_rules
from tests.ecosystem.samples import CLEAN, TRAIN
from tests.static.helpers import write_tree


def flake8(args: List[str], cwd, stdin: Optional[str] = None, prelude: str = "") -> subprocess.CompletedProcess:
    code = f"{prelude}\nimport sys\nfrom flake8.main.cli import main\nsys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, "--isolated", *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=120
    )


def findings(out: str) -> Set[Tuple[str, int, int, str]]:
    found = set()
    for line in out.splitlines():
        path, row, col, rest = line.split(":", 3)
        found.add((path.lstrip("./"), int(row), int(col), rest.split()[0]))
    return found


def test_flake8_select_fsd_reports_the_findings_with_flake8_columns(tmp_path):
    write_tree(tmp_path, {"src/train.py": TRAIN, "src/clean.py": CLEAN, "src/other.py": "import os\n"})
    done = flake8(["--select", "FSD", "src/"], tmp_path)
    assert done.returncode == 1, done.stderr
    assert findings(done.stdout) == {
        ("src/train.py", 5, 13, "FSD202"), ("src/train.py", 9, 7, "FSD201"),
        ("src/train.py", 10, 5, "FSD201"), ("src/train.py", 11, 1, "FSD301"),
    }
    assert flake8(["--select", "FSD", "src/clean.py"], tmp_path).returncode == 0


def test_flake8_does_the_noqa_and_ignore_handling(tmp_path):
    write_tree(tmp_path, {"train.py": TRAIN.replace("# keep this comment", "# noqa: FSD201")})
    assert {f[1] for f in findings(flake8(["--select", "FSD", "train.py"], tmp_path).stdout)} == {5, 10, 11}
    assert {f[1] for f in findings(flake8(["--select", "FSD", "--disable-noqa", "train.py"], tmp_path).stdout)} == {5, 9, 10, 11}
    assert {f[3] for f in findings(flake8(["--select", "FSD", "--extend-ignore", "FSD2", "train.py"], tmp_path).stdout)} == {"FSD301"}
    per_file = flake8(["--select", "FSD", "--per-file-ignores", "train.py:FSD", "train.py"], tmp_path)
    assert per_file.returncode == 0 and per_file.stdout == ""


def test_unsaved_buffer_on_stdin_is_analysed_without_reading_the_file(tmp_path):
    # The file on disk is clean; the editor's buffer is not. flake8 must report the buffer.
    write_tree(tmp_path, {"train.py": CLEAN})
    done = flake8(["--select", "FSD", "--stdin-display-name", "train.py", "-"], tmp_path, stdin=TRAIN)
    assert done.returncode == 1
    assert {(f[0], f[1], f[3]) for f in findings(done.stdout)} == {
        ("train.py", 5, "FSD202"), ("train.py", 9, "FSD201"), ("train.py", 10, "FSD201"), ("train.py", 11, "FSD301")
    }


def test_a_crash_in_the_plugin_does_not_abort_flake8(tmp_path):
    write_tree(tmp_path, {"a.py": "import os\n" + TRAIN, "b.py": "import sys\n"})
    prelude = (
        "import fsdp_lint.engine.lint\n"
        "def boom(*args, **kwargs):\n    raise RuntimeError('simulated crash')\n"
        "fsdp_lint.engine.lint.lint_sources = boom"
    )
    done = flake8(["--select", "F401,FSD", "--jobs", "1", "a.py", "b.py"], tmp_path, prelude=prelude)
    assert "There was a critical error" not in done.stderr
    assert "fsdp-lint: internal error on a.py: RuntimeError: simulated crash (file skipped)" in done.stderr
    assert {(f[0], f[3]) for f in findings(done.stdout)} == {("a.py", "F401"), ("b.py", "F401")}


def test_every_single_file_rule_example_gives_the_same_findings_through_flake8(tmp_path):
    """One flake8 run over every single-file INVALID example of every rule."""
    expected = set()
    for code, rule in all_rules().items():
        for number, example in enumerate(rule.INVALID):
            files = example.files()
            if len(files) != 1:
                continue  # cross-module examples need the whole project: the CLI's job
            name = f"{code.lower()}_{number}.py"
            write_tree(tmp_path, {name: next(iter(files.values()))})
            expected |= {(name, line, c) for _, line, c in example.expected()}
    assert len(expected) >= 5
    done = flake8(["--select", "FSD", "."], tmp_path)
    found = {(path, row, code) for path, row, _, code in findings(done.stdout)}
    by_rule = lambda items, c: {i for i in items if i[0].startswith(c.lower())}  # noqa: E731
    for code in all_rules():
        assert {i for i in by_rule(found, code) if i[2] == code} == by_rule(expected, code), code


# The editor shows what CI shows: a project whose configuration lives in a subdirectory's
# pyproject.toml, linted by flake8 from several working directories and by the CLI.
PARITY_CONFIG = """\
[tool.fsdp-lint]
ignore = ["FSD301"]
per-file-ignores = { "tests/*" = ["FSD2"] }

[tool.fsdp-lint.rules.FSD202]
extend-remapping-calls = ["wrap_for_training"]

[tool.fsdp-lint.analysis]
extra-shard-functions = ["mylib.parallel.shard_model"]
"""
# FSD202 only with the declared sharding function (and a name the plugin's text screen must keep).
DECLARED = """\
import torch
from mylib.parallel import shard_model

model = Net()
optimizer = torch.optim.AdamW(model.parameters())
shard_model(model)
torch.save(model.state_dict(), "x.pt")
"""
# FSD202 only without the rule option.
REMAPPED = """\
import torch
from torch.distributed.fsdp import fully_shard

model = Model()
optimizer = torch.optim.AdamW(model.parameters())
fully_shard(model)
model, optimizer = wrap_for_training(model, optimizer)
"""


def test_plugin_and_cli_agree_on_every_file_from_any_working_directory(tmp_path):
    import os

    from tests.static.helpers import run_subprocess

    project = tmp_path / "repo" / "proj"
    write_tree(tmp_path, {
        "repo/.git/HEAD": "", "repo/proj/pyproject.toml": PARITY_CONFIG,
        "repo/proj/src/train.py": DECLARED, "repo/proj/src/remapped.py": REMAPPED,
        "repo/proj/src/plain.py": TRAIN, "repo/proj/tests/test_train.py": TRAIN,
    })
    files = sorted(p for p in project.rglob("*.py"))
    cli = set()
    for path in files:  # one file at a time: the plugin's view (flake8 hands over one file)
        run = run_subprocess(["--format", "json", "--no-cache", str(path)], cwd=str(path.parent))
        assert run.code in (0, 1), run.err
        cli |= {(r["path"], r["line"], r["code"]) for r in __import__("json").loads(run.out)}
    assert (str(project / "src" / "train.py"), 5, "FSD202") in cli  # the declared sharding function
    assert not any(path.endswith("remapped.py") for path, _, _ in cli)  # the rule option
    assert not any(path.endswith("test_train.py") and code.startswith("FSD2") for path, _, code in cli)  # per-file-ignores
    assert not any(code == "FSD301" for _, _, code in cli)
    for cwd in (tmp_path, tmp_path / "repo", project, project / "src", project / "tests"):
        relative = [os.path.relpath(path, cwd) for path in files]
        done = flake8(["--select", "FSD", *relative], cwd)
        assert done.returncode == 1, done.stderr
        plugin = set()
        for line in done.stdout.splitlines():
            path, row, _, rest = line.split(":", 3)
            plugin.add((os.path.normpath(cwd / path), int(row), rest.split()[0]))
        assert plugin == cli, cwd
    stdin = flake8(["--select", "FSD", "--stdin-display-name", "src/train.py", "-"], project, stdin=DECLARED)
    assert {(f[1], f[3]) for f in findings(stdin.stdout)} == {(5, "FSD202")}


def test_a_file_that_cannot_mention_fsdp_imports_nothing_of_the_analysis(tmp_path):
    """flake8 runs the plugin on every file: one that cannot hold FSDP code must not pay for
    importing the engine and astroid (0.07 s, more than many files' whole flake8 run)."""
    write_tree(tmp_path, {"util.py": "import os\n", "train.py": TRAIN})
    prelude = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write(f\"analysis imported: {'astroid' in sys.modules}\\n\"))"
    )
    plain = flake8(["--select", "FSD,F", "--jobs", "1", "util.py"], tmp_path, prelude=prelude)
    assert "analysis imported: False" in plain.stderr
    assert {f[3] for f in findings(plain.stdout)} == {"F401"}
    sharded = flake8(["--select", "FSD,F", "--jobs", "1", "train.py"], tmp_path, prelude=prelude)
    assert "analysis imported: True" in sharded.stderr


def test_the_plugin_rebuilds_flake8s_tree_without_changing_it(tmp_path):
    """The plugin reuses the syntax tree flake8 hands every plugin instead of parsing again: its
    findings are those of its own parse, and the tree, docstrings included, is left as it was for
    the plugins that read it after this one."""
    import ast

    from fsdp_lint.frontends.flake8_plugin import Flake8Plugin

    documented = '"""Training."""\n' + TRAIN.replace("import torch\n", "import torch\n\n\ndef step(model):\n    \"\"\"One step.\"\"\"\n    model.forward(1)\n\n\nclass Trainer:\n    \"\"\"Trains.\"\"\"\n\n", 1)
    path = str(tmp_path / "train.py")
    lines = documented.splitlines(keepends=True)
    tree = ast.parse(documented)
    before = ast.dump(tree, include_attributes=True)
    found = [finding[:3] for finding in Flake8Plugin(tree, path, lines).run()]
    assert ast.dump(tree, include_attributes=True) == before
    own_parse = [finding[:3] for finding in Flake8Plugin(None, path, lines).run()]
    assert found == own_parse and {message.split()[0] for _, _, message in found} == {"FSD202", "FSD201", "FSD301"}
