"""The linter never imports or executes the code it lints. Every module here writes a marker file
when imported; the tree is linted through each way astroid could be led to import or load it
(the module is on sys.path, is imported by name and by `*` from a linted file, is a package
`__init__`, is named in a `.pth` file, or has a C-extension's name), and no marker appears."""

from __future__ import annotations

import os
import sys

import pytest

from fsdp_lint.engine.lint import LintOptions, lint_paths
from tests.static.helpers import run_subprocess, write_tree

SIDE_EFFECT = "open({marker!r}, 'w').write('imported')\nmodel = object()\n"


def _tree(root):
    markers = {name: str(root / f"MARKER_{name}") for name in ("module", "package", "submodule", "stub", "ext")}
    write_tree(root, {
        "marker_mod.py": SIDE_EFFECT.format(marker=markers["module"]),
        "victim_pkg/__init__.py": SIDE_EFFECT.format(marker=markers["package"]),
        "victim_pkg/sub.py": SIDE_EFFECT.format(marker=markers["submodule"]),
        "typed_mod.pyi": "x: int\n",
        "typed_mod.py": SIDE_EFFECT.format(marker=markers["stub"]),
        "fastops.cpython-311-x86_64-linux-gnu.so.py": SIDE_EFFECT.format(marker=markers["ext"]),
        "trick.pth": "import marker_mod\n",
        "user.py": (
            "from torch.distributed.fsdp import fully_shard\n"
            "import marker_mod\n"
            "from marker_mod import *\n"
            "from victim_pkg import *\n"
            "import victim_pkg.sub\n"
            "import typed_mod\n"
            "import fastops\n"
            "marker_mod.model.attr = 1\n"          # astroid infers assignment targets (imports)
            "victim_pkg.sub.model.attr = 2\n"
            "fully_shard(marker_mod.model)\n"
            "marker_mod.model.forward(1)\n"
        ),
    })
    (root / "fastops.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF not really\n")
    return markers


@pytest.mark.parametrize("prefilter", [True, False])
def test_linting_in_process_imports_nothing(tmp_path, monkeypatch, prefilter):
    markers = _tree(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    before = set(sys.modules)
    result = lint_paths(["."], LintOptions(prefilter=prefilter, jobs=1))
    assert not result.internal_errors
    assert [m for m in markers.values() if os.path.exists(m)] == []
    assert not {"marker_mod", "victim_pkg", "victim_pkg.sub", "typed_mod", "fastops"} & (set(sys.modules) - before)


def test_linting_as_a_command_imports_nothing(tmp_path):
    markers = _tree(tmp_path)
    run = run_subprocess([".", "--no-cache"], cwd=str(tmp_path), env={"PYTHONPATH": str(tmp_path)})
    assert run.code in (0, 1), run.err
    assert "Traceback" not in run.err
    assert [m for m in markers.values() if os.path.exists(m)] == []
