"""Which files of a tree apply a module's names as decorators (`@MODEL_REGISTER("toy")`, with
`MODEL_REGISTER` imported from `app.registry`), read from their bytes and their imports.

A decorator that stores a class into a dict is the only link from a registry to the classes it
holds: the trainer builds its model from `MODEL_REGISTER[name]` and imports the model's module for
its side effect, or lazily (`importlib.import_module`), so no name the analysis resolves leads
into it. The analysis asks for these files when it reads a registry
(`fsdp_lint.analysis.registrations`), and parses those whose decorator registers.
"""

from __future__ import annotations

import re
from typing import Dict, FrozenSet, List, Mapping, Optional, Set, Tuple

from fsdp_lint.engine.prefilter import Imported, importers, pairs

# A decorator's dotted name, at the start of a line (in a string too: a file more only costs a parse).
_DECORATOR = re.compile(rb"^[ \t]*@[ \t]*([A-Za-z_][\w.]*)", re.M)

ImportIndex = Mapping[str, List[Tuple[str, Imported]]]


def decorators_from(module: str, path: Optional[str], index: ImportIndex, data: Mapping[str, bytes]) -> Dict[str, FrozenSet[str]]:
    """For each file that imports `module` (the file `path`) and applies one of its names as a
    decorator, or an attribute of one (`@EngineRegistry.register(...)`), those names, by path."""
    meanings: Dict[str, Dict[bytes, str]] = {}  # per file: what a decorator's dotted name starts with, and the name of `module` it means ("" when the next part is)
    for importer, (names, alias) in importers(module, path, index):
        table = meanings.setdefault(importer, {})
        if names is None:
            table[(alias or module).encode() + b"."] = ""
        else:
            table.update((bound.encode(), imported) for imported, bound in pairs(names) if imported != "*")
    found: Dict[str, FrozenSet[str]] = {}
    for importer, table in meanings.items():
        names_used: Set[str] = set()
        for match in _DECORATOR.finditer(data[importer]):
            dotted = match.group(1)
            for start, name in table.items():
                if name and (dotted == start or dotted.startswith(start + b".")):
                    names_used.add(name)
                elif not name and dotted.startswith(start) and len(dotted) > len(start):
                    names_used.add(dotted[len(start):].split(b".", 1)[0].decode("ascii", "replace"))
        if names_used:
            found[importer] = frozenset(names_used)
    return found
