"""FSD001 for the files the analysis does not parse, at a fraction of the cost of parsing them.

CPython's parser runs with its symbol table pass instead of building an AST (half the time of
`ast.parse` on the torch tree). The symbol table pass rejects a few programs that parse (`nonlocal`
at module level), so a file it rejects goes through the real parse, which decides and words the
finding exactly as for an analysed file. The one difference left: a file so deeply nested that it
parses but overflows astroid's recursion gets FSD001 only when it is analysed.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Callable, List, Mapping, Sequence, Tuple

from fsdp_lint.source import parse
from fsdp_lint.violation import Violation

try:
    from _symtable import symtable as _symbol_table
except ImportError:  # another Python implementation: the compiler does the same job, slower
    _symbol_table = None


def unparsable(texts: Mapping[str, str], names: Mapping[str, str], paths: Sequence[str]) -> List[Violation]:
    found: List[Violation] = []
    for path in paths:
        try:
            if _symbol_table is not None:
                _symbol_table(texts[path], path, "exec")
            else:
                compile(texts[path], path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            built = parse(texts[path], names[path], os.path.abspath(path), path)
            if isinstance(built, Violation):
                found.append(built)
    return found


# Below this many files, starting a process costs more than the check.
MIN_FILES = 200

_inherited: Tuple[Mapping[str, str], Mapping[str, str], Sequence[str]] = ({}, {}, ())


def start(texts: Mapping[str, str], names: Mapping[str, str], paths: Sequence[str], in_background: bool) -> Callable[[], List[Violation]]:
    """Check `paths` now, or in a forked process (which inherits the texts instead of receiving
    them through a pipe) while this one analyses; call the result to collect the findings."""
    global _inherited
    if not paths:
        return lambda: []
    if not in_background or len(paths) < MIN_FILES or "fork" not in multiprocessing.get_all_start_methods():
        found = unparsable(texts, names, paths)
        return lambda: found
    _inherited = (texts, names, paths)
    try:
        pool = multiprocessing.get_context("fork").Pool(1)
    finally:
        _inherited = ({}, {}, ())
    pending = pool.apply_async(_check_inherited)

    def collect() -> List[Violation]:
        try:
            return pending.get()
        finally:
            pool.close()
            pool.join()

    return collect


def _check_inherited() -> List[Violation]:
    return unparsable(*_inherited)
