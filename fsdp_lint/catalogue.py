"""The contract catalogue: code, name, severity and documentation of every code, read from the
rule and runtime-check files themselves.

The files are parsed with the stdlib `ast`, never imported: `fsdp-lint rule FSD108` must work in a
lint-only environment where the runtime check's `import torch` would fail, and listing the
catalogue should not pay for astroid.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, List, Optional

import fsdp_lint

_PACKAGE_DIR = os.path.dirname(os.path.abspath(fsdp_lint.__file__))
_FILE_NAME = re.compile(r"fsd\d{3}_\w+\.py\Z")


@dataclass(frozen=True)
class Documented:
    code: str
    name: str
    severity: str
    doc: str
    path: str

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0].strip() if self.doc.strip() else ""


@dataclass(frozen=True)
class Entry:
    """One contract: its static rule and/or runtime check, and the doc page that describes it."""

    code: str
    name: str
    severity: str
    static: Optional[Documented]
    runtime: Optional[Documented]
    tool: bool = False

    @property
    def doc(self) -> str:
        return (self.static or self.runtime).doc  # type: ignore[union-attr]

    @property
    def summary(self) -> str:
        return (self.static or self.runtime).summary  # type: ignore[union-attr]

    @property
    def enforced_by(self) -> str:
        return "tool" if self.tool else "/".join(k for k, v in (("static", self.static), ("runtime", self.runtime)) if v)


def _contracts_in(path: str) -> List[Documented]:
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), filename=path)
    found = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields = {}
        for statement in node.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
                if isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str):
                    fields[statement.targets[0].id] = statement.value.value
        if "code" in fields and "name" in fields:
            doc = ast.get_docstring(node) or ""
            found.append(Documented(fields["code"], fields["name"], fields.get("severity", "error"), doc, path))
    return found


def _directory(subpackage: str) -> str:
    """`rules/` and `runtime_checks/` are installed as subpackages; in a checkout they sit beside."""
    import importlib

    module = importlib.import_module(f"fsdp_lint.{subpackage}")
    return os.path.dirname(os.path.abspath(module.__file__))


def _scan(subpackage: str) -> Dict[str, Documented]:
    directory = _directory(subpackage)
    found: Dict[str, Documented] = {}
    for name in sorted(os.listdir(directory)):
        if _FILE_NAME.match(name):
            for item in _contracts_in(os.path.join(directory, name)):
                found[item.code] = item
    return found


@lru_cache(maxsize=1)
def catalogue() -> Dict[str, Entry]:
    static = _scan("rules")
    runtime = _scan("runtime_checks")
    entries: Dict[str, Entry] = {}
    for item in _contracts_in(os.path.join(_PACKAGE_DIR, "tool_codes.py")):
        entries[item.code] = Entry(item.code, item.name, item.severity, item, None, tool=True)
    for code in sorted(set(static) | set(runtime)):
        main = static.get(code) or runtime[code]
        entries[code] = Entry(code, main.name, main.severity, static.get(code), runtime.get(code))
    return dict(sorted(entries.items()))


def lookup(code_or_name: str) -> Optional[Entry]:
    wanted = code_or_name.strip()
    for entry in catalogue().values():
        if wanted.upper() == entry.code or wanted == entry.name:
            return entry
    return None
