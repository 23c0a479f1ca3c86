"""Running the CLI in-process or as a real subprocess, the two ways users meet it."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Dict, Optional, Sequence

from fsdp_lint.frontends.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(args: Sequence[str]) -> Run:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out, err)
    return Run(code, out.getvalue(), err.getvalue())


def run_subprocess(args: Sequence[str], cwd: Optional[str] = None, env: Optional[Dict[str, str]] = None, prelude: str = "") -> Run:
    """`python -c "<prelude>; fsdp_lint.frontends.cli.main()"`: a fresh interpreter, as a user runs it."""
    code = f"{prelude}\nimport sys\nfrom fsdp_lint.frontends.cli import main\nsys.exit(main())"
    environment = dict(os.environ, **(env or {}))
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)
    return Run(done.returncode, done.stdout, done.stderr)


def write_tree(root, files: Dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
