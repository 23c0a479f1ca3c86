"""Docs from one source: `fsdp-lint rule`, `fsdp-lint rules`, and README's examples, which must be
what the commands print on `examples/train.py` (shipped, so a reader can run them)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fsdp_lint.catalogue import catalogue
from tests.static.helpers import run_cli, write_tree

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```text\n(\$ (?:fsdp-lint|flake8) [^\n]*)\n(.*?)```", README, flags=re.S)


def test_rule_page_has_what_why_example_use_instead_options_and_runtime_twin():
    run = run_cli(["rule", "FSD202"])
    assert run.code == 0
    page = run.out
    assert page.startswith("# optimizer-before-shard (FSD202)\n")
    for part in ("## What it does", "## Why is this bad?", "## Example", "Use instead:", "## Options",
                 "`extend-remapping-calls`", "## Runtime twin", "### What it does"):
        assert part in page, part
    assert run_cli(["rule", "optimizer-before-shard"]).out == page
    assert run_cli(["rule", "FSD999"]).code == 2


def test_rules_lists_every_contract():
    out = run_cli(["rules"]).out
    assert [line.split()[0] for line in out.splitlines()] == list(catalogue())


def test_readme_has_examples_to_check():
    commands = [command for command, _ in EXAMPLES]
    assert "$ fsdp-lint examples/" in commands and "$ flake8 --select FSD examples/" in commands


@pytest.mark.parametrize("command, expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example_output_is_what_the_command_prints(tmp_path, command, expected):
    example = (ROOT / "examples" / "train.py").read_text(encoding="utf-8")
    write_tree(tmp_path, {".git/HEAD": "", "examples/train.py": example})
    argv = shlex.split(command[2:])
    program = "from fsdp_lint.frontends.cli import main" if argv[0] == "fsdp-lint" else "from flake8.main.cli import main"
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\n{program}\nsys.exit(main())", *argv[1:]],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env={"NO_COLOR": "1", "PATH": ""},
    )
    lines = expected.splitlines()
    printed = (done.stdout + done.stderr).splitlines()
    if lines[-1] == "...":  # an excerpt: the first lines only
        lines, printed = lines[:-1], printed[: len(lines) - 1]
    assert printed == lines, (
        f"README's `{command}` example is stale: run it at the repository's root (with NO_COLOR=1 and "
        "--no-cache) and paste its output"
    )
