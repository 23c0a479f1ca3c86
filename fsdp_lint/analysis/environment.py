"""The process environment: an input the linted tree reads but does not choose.

`os.environ.get("FSDP_VERSION", "1") == "2"` in one function and `os.getenv("FSDP_VERSION")` in
another read one value on a run, whatever the default each read names: the environment is fixed
before the program starts. So a read of a variable with a constant name is an attribute of one
object, `ENVIRON` (`variable`), and a test of it is a flag of that attribute (`flags`): it takes
the same arm in every function and module of a run, and travels into callees and back through
summaries as flags do (the root is no function's, so mapping leaves it as it is).

A variable the tree writes (`os.environ[NAME] = ...`, `setdefault`, `update`, `pop`, `putenv`,
`monkeypatch.setenv`) is not such an input: reads of it stay unknown values, as any value the
walk cannot follow. The writes are found in the bytes of every file of the tree (`written`),
where a write in a module the analysis never enters still changes what a read sees.
"""

from __future__ import annotations

import re
from typing import FrozenSet, Iterable, Optional

from astroid import nodes

from fsdp_lint.analysis.paths import Path
from fsdp_lint.analysis.values import Obj, Root

# The environment as an object: its root belongs to no scope (a scope key has no `<`), and its
# name is no identifier, so it is no module global either (`module_globals.is_global`).
ENVIRON: Root = ("<process>", "os.environ", 0)
# Calls whose first argument names the variable read (a default, if given, is second).
READERS = frozenset({"os.environ.get", "os.getenv"})
ENVIRON_NAME = "os.environ"

_NAME = rb"""\s*[rbuRBU]?['"](\w+)['"]"""
_WRITES = (
    re.compile(rb"environ\s*\[" + _NAME + rb"\s*\]\s*(?:=(?!=)|[-+|]=)"),
    re.compile(rb"\bdel\s+[\w.]*environ\s*\[" + _NAME),
    re.compile(rb"environ\s*\.\s*(?:setdefault|pop)\s*\(" + _NAME),
    re.compile(rb"\b(?:putenv|unsetenv|setenv|delenv)\s*\(" + _NAME),  # os.putenv, pytest's monkeypatch
)
_UPDATE = re.compile(rb"environ\s*\.\s*update\s*\(([^)]*)\)")
_UPDATED_KEY = _NAME + rb"\s*:|\b(\w+)\s*=(?!=)"  # compiled on first use: few files update the environment


def written(sources: Iterable[bytes]) -> FrozenSet[str]:
    """The names of the variables that some file of the tree writes, by a constant name."""
    found = set()
    for data in sources:
        if b"env" not in data:
            continue
        for pattern in _WRITES:
            found.update(match.decode() for match in pattern.findall(data))
        for arguments in _UPDATE.findall(data):
            found.update((quoted or keyword).decode() for quoted, keyword in re.findall(_UPDATED_KEY, arguments))
    return frozenset(found)


def variable(name: str) -> Obj:
    """The value a read of the variable `name` gives: one attribute of `ENVIRON` on every run."""
    return Obj(ENVIRON, (name,), "builtins.str")


def read_name(node: nodes.NodeNG, qualified: Optional[str]) -> Optional[str]:
    """The constant name of the variable `node` reads (`os.environ.get(NAME, default)`,
    `os.getenv(NAME)` with `qualified` the name of the function called; `os.environ[NAME]` with
    `qualified` the name of the subscripted object); None for other expressions."""
    if isinstance(node, nodes.Call) and qualified in READERS and node.args:
        name = node.args[0]
    elif isinstance(node, nodes.Subscript) and qualified == ENVIRON_NAME:
        name = node.slice
    else:
        return None
    return name.value if isinstance(name, nodes.Const) and isinstance(name.value, str) else None


def is_input(root: Root) -> bool:
    """Whether `root` is the environment's: an object every function of a run shares."""
    return root == ENVIRON


def about_inputs(path: Path) -> Path:
    """The outcomes of a path that test the environment: they mean the same in every function
    (a calling context hands them to a callee as they are)."""
    return frozenset(literal for literal in path if literal[0][0] == "flag" and is_input(literal[0][1]))  # type: ignore[arg-type]
