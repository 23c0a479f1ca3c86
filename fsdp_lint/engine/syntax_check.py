"""FSD001 for the files the analysis does not parse, at a fraction of the cost of parsing them.

A file whose bytecode cache (`__pycache__/<name>.cpython-3X.pyc`) Python itself wrote for exactly
these bytes (the header's source size and modification time match, or its source hash does, as
the import system checks) compiled under this version of Python: it is not read again. That
covers installed packages and any tree that was imported or tested; nothing is ever written there.

Other files go through CPython's parser with its symbol table pass instead of building an AST
(half the time of `ast.parse`, a third less than `compile(..., PyCF_ONLY_AST)` on the torch
tree). The symbol table pass rejects a few programs that parse (`nonlocal` at module level), so a
file it rejects goes through the real parse, which decides and words the finding exactly as for
an analysed file. The one difference left: a file so deeply nested that it parses but overflows
astroid's recursion gets FSD001 only when it is analysed.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple

from fsdp_lint.engine import shared_work
from fsdp_lint.violation import Violation

try:
    from _symtable import symtable as _symbol_table
except ImportError:  # another Python implementation: the compiler does the same job, slower
    _symbol_table = None

_HEADER = 16
_HASH_BASED = 0b01


def compiled_by_python(path: str, data: bytes) -> bool:
    """Whether this interpreter's bytecode cache for `path` was compiled from `data`."""
    try:
        cached = importlib.util.cache_from_source(path)
        with open(cached, "rb") as handle:
            header = handle.read(_HEADER)
        status = os.stat(path)
    except (OSError, ValueError, NotImplementedError):
        return False
    if len(header) < _HEADER or header[:4] != importlib.util.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(header[4:8], "little")
    if flags & ~0b11:
        return False
    if flags & _HASH_BASED:
        return header[8:16] == importlib.util.source_hash(data)
    return (
        int.from_bytes(header[8:12], "little") == int(status.st_mtime) & 0xFFFFFFFF
        and int.from_bytes(header[12:16], "little") == len(data) & 0xFFFFFFFF == status.st_size & 0xFFFFFFFF
    )


def compiles(text: str, path: str) -> bool:
    """Whether CPython's parser and symbol table accept `text` (a fifth of astroid's time)."""
    try:
        if _symbol_table is not None:
            _symbol_table(text, path, "exec")
        else:
            compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False
    return True


def unparsable(
    texts: Mapping[str, str], names: Mapping[str, str], paths: Sequence[str], data: Optional[Mapping[str, bytes]] = None,
    target: Optional[Tuple[int, int]] = None,
) -> List[Violation]:
    """FSD001 (or FSD002) for each of `paths` that does not parse; `data` (the bytes read from
    disk) enables the bytecode-cache shortcut, which needs the files' real paths; `target` is the
    project's Python (`source.parse`)."""
    from fsdp_lint.engine.source import parse

    found: List[Violation] = []
    for path in paths:
        if data is not None and compiled_by_python(path, data[path]):
            continue
        text = texts[path]
        if not compiles(text, path):
            built = parse(text, names[path], os.path.abspath(path), path, target)
            if isinstance(built, Violation):
                found.append(built)
    return found


# Below this many files, starting a process costs more than the check.
MIN_FILES = 200

_inherited: Tuple[Mapping[str, str], Mapping[str, str], Sequence[str], Optional[Mapping[str, bytes]], Any, Any] = ({}, {}, (), None, None, None)


def start(
    texts: Mapping[str, str], names: Mapping[str, str], paths: Sequence[str], in_background: bool,
    data: Optional[Mapping[str, bytes]] = None, target: Optional[Tuple[int, int]] = None,
) -> Callable[[], List[Violation]]:
    """Check `paths`; call the result to collect the findings.

    With `in_background`, a forked process (which inherits the texts instead of receiving them
    through a pipe) starts on the files while this one analyses, and this one joins in when it
    calls the result: both take files from one shared position, so the work splits evenly
    whichever finishes its other work first.
    """
    global _inherited
    if not paths:
        return lambda: []
    if not in_background or len(paths) < MIN_FILES or "fork" not in multiprocessing.get_all_start_methods():
        return lambda: unparsable(texts, names, paths, data, target)
    context = multiprocessing.get_context("fork")
    position = shared_work.shared_position()
    _inherited = (texts, names, paths, data, target, position)
    try:
        pool = context.Pool(1)
    finally:
        _inherited = ({}, {}, (), None, None, None)
    pending = pool.apply_async(_check_inherited)

    def collect() -> List[Violation]:
        try:
            own = _check_shared(texts, names, paths, data, target, position)
            return pending.get() + own
        finally:
            pool.close()
            pool.join()

    return collect


def _check_inherited() -> List[Violation]:
    return _check_shared(*_inherited)  # type: ignore[arg-type]


def _check_shared(
    texts: Mapping[str, str], names: Mapping[str, str], paths: Sequence[str], data: Optional[Mapping[str, bytes]],
    target: Optional[Tuple[int, int]], position: Any,
) -> List[Violation]:
    return [found for part in shared_work.chunks(position, len(paths)) for found in unparsable(texts, names, paths[part], data, target)]
