"""The byte scan's names of import bindings must include every name an import binds (name
resolution skips parsing a module on the strength of a name's absence)."""

from __future__ import annotations

import ast
import importlib
import os

import pytest

from fsdp_lint.engine.prefilter import import_bound_names

TRICKY = [
    "from .x import (a as b,  # a comment (with parentheses)\n    c,\n)\n",
    "from a import b, \\\n    c\n",
    "from a import b, \\\r\n    c\r\n",
    "import a.b as c, d\n",
    "x = 1; from .m import n\n",
    "if x:\n    from . import sub\nelse:\n    sub = None\n",
    "def f():\n    global g\n    from m import g\n",
    "from.m import(k)\n",
    "try:\n    from fast import impl\nexcept ImportError:\n    from slow import impl\n",
    "if x: from a import b\n",
    "class C: import os\n",
    "from \\\n    pkg import late\n",
    "from pkg import \\\n    (first as one,\n     second as two)\n",
    "x = 1\rfrom m import lone_cr\rimport other\r",
    '"""\n>>> from a import quoted\n"""\nfrom m import real\n',
]


def _bound(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.asname or alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*":
                    yield alias.asname or alias.name


def _sources():
    for text in TRICKY:
        yield "snippet", text.encode()
    for package in ("json", "email", "asyncio", "importlib", "logging", "multiprocessing", "unittest", "concurrent.futures"):
        directory = os.path.dirname(importlib.import_module(package).__file__)
        for name in sorted(os.listdir(directory)):
            if name.endswith(".py"):
                with open(os.path.join(directory, name), "rb") as handle:
                    yield f"{package}/{name}", handle.read()


@pytest.mark.parametrize("label, data", list(_sources()))
def test_every_imported_name_is_among_the_scanned_ones(label, data):
    found = import_bound_names(data)
    if found is None:  # non-ASCII near an import: the module is parsed instead
        return
    assert set(_bound(ast.parse(data))) <= found, label


def test_a_quoted_import_binds_nothing():
    """A doctest in a docstring is no import: it must not make name resolution parse the module."""
    assert "quoted" not in import_bound_names(b'"""\n>>> from a import quoted\n"""\n')
