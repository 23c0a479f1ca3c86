"""Dotted module names, given the way Python gives them to a project run from its checkout, so
that the tree's own absolute imports resolve to its files.

A file's name starts at an import root. The usual root is the directory above the top-level
package (`src/pkg/x.py` is `pkg.x`; a linted `site-packages/torch` keeps `torch.`). A checkout
with a stray `__init__.py` at its top (a ComfyUI plugin, a habit) moves that root one level up,
to a directory Python never imports from: run from the checkout, `from allamo.trainer import ...`
finds `<checkout>/allamo/trainer`. So where a top-level package is the linted directory or holds
it, the roots Python could have on `sys.path` are weighed: the directory above it, the package
itself (the checkout) and its `src/`, and the one under which the package's own imports resolve
is kept (a package below the linted directory has that directory above it: a root either way).

A directory without `__init__.py` is a namespace package (PEP 420) as seen from any root above
it: run from the checkout, `from models.qwen.model import Model` finds `models/qwen/model.py`
though neither directory has an `__init__.py`, while a script run from `models/qwen/` imports it
as `model`. So for the files of such a directory (and a top-level package inside one), the roots
that count are the directory itself and each directory above it up to the linted one, and the
one under which the tree's absolute imports name those files (or the namespace packages that
hold them) most often is kept; a directory that no import names keeps its files named as
scripts run from it. Weighing them reads the head of every file, so only the analysis asks for
these names (`analysed_module_names`); a run answered from the cache is keyed by the names
`module_names` gives without reading (the namespace names follow from those and the files'
contents, which the key covers by their hashes).
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from typing import Callable, Dict, Iterable, Mapping, Optional, Tuple, Union

# Patterns compiled on first use (by `re`'s cache): only a tree with ambiguous module names reads imports.
_IMPORT = rb"(?m)^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w.]*))"
_IMPORTED = rb"[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t(]+([A-Za-z_]\w*)|import[ \t]+([A-Za-z_][\w.]*))"
_SETTLED = 5  # imports by which one root must lead the others for the rest to be left unread
_HEAD = 8192  # bytes of each file read for its imports: a file's imports open it (a 1 MB stub has few)


def _named(path: str, is_package_dir: Callable[[str], bool]) -> Tuple[str, str, Optional[str]]:
    """The file's stem prefixed by every enclosing package directory, the file's directory, and
    the outermost package directory (None for a file in no package)."""
    folder, filename = os.path.split(os.path.normpath(path))
    stem = filename.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    top = None
    directory = folder
    while directory and is_package_dir(directory):
        top = directory
        directory, package = os.path.split(directory)
        if not package:  # the file system's root
            break
        parts.insert(0, package)
    return ".".join(parts) or stem, folder, top


def module_names(sources: Mapping[str, Union[str, bytes]], is_package_dir: Callable[[str], bool]) -> Dict[str, str]:
    """Dotted names by path, the files of namespace packages named as scripts run from their
    directory; scripts that share a name (many `train.py`) get their directory path."""
    return _names(sources, is_package_dir, None)


def analysed_module_names(sources: Mapping[str, Union[str, bytes]], is_package_dir: Callable[[str], bool]) -> Dict[str, str]:
    """`module_names`, with the files of namespace packages named from the root above them under
    which the tree's imports name them."""
    return _names(sources, is_package_dir, _ImportedNames(sources))


def _names(sources: Mapping[str, Union[str, bytes]], is_package_dir: Callable[[str], bool], imports: Optional["_ImportedNames"]) -> Dict[str, str]:
    is_package_dir = functools.lru_cache(maxsize=None)(is_package_dir)  # asked once per file and level
    by_top: Dict[Optional[str], Dict[str, str]] = {}
    scripts: Dict[str, Dict[str, str]] = {}  # the files in no package, by directory
    directories = set()
    for path in sources:
        # from the absolute path: `fsdp-lint .` inside a checkout and `fsdp-lint /abs/checkout`
        # must name its files alike (relative paths have no common directory above `.`)
        name, folder, top = _named(os.path.abspath(path), is_package_dir)
        by_top.setdefault(top, {})[path] = name
        if top is None:
            scripts.setdefault(folder, {})[path] = name
        directories.add(folder)
    linted = _common_directory(directories)
    # the namespace packages inside a package of the linted directory are named through it
    # (`pkg/testing/model_utils.py`, `pkg` a package, `testing` none: `pkg.testing.model_utils`)
    above = linted
    while above is not None and is_package_dir(above) and os.path.dirname(above) != above:
        above = os.path.dirname(above)
    names: Dict[str, str] = {}
    for top, group in by_top.items():
        if top is None:
            continue
        if not os.path.basename(top).isidentifier() or linted is not None and (linted == top or linted.startswith(top + os.sep)):
            names.update(_from_import_root(top, group, sources, is_package_dir))
        elif imports is not None:
            names.update(_in_namespace_package(os.path.dirname(top), group, linted, imports))
        else:
            names.update(group)
    for folder, group in scripts.items():
        names.update(_in_namespace_package(folder, group, above, imports) if imports is not None else group)
    counts: Dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    for path, name in names.items():
        if counts[name] > 1:
            stem = os.path.splitext(os.path.normpath(path))[0].lstrip("./" + os.sep)
            names[path] = stem.replace(os.sep, ".").replace("/", ".")
    return names


def _common_directory(directories: Iterable[str]) -> Optional[str]:
    """The directory that holds every file of the run: the linted directory, when there is one."""
    try:
        return os.path.commonpath(list(directories))
    except ValueError:  # none, or absolute and relative paths mixed
        return None


def _from_import_root(top: str, names: Dict[str, str], sources: Mapping[str, Union[str, bytes]],
                      is_package_dir: Callable[[str], bool]) -> Dict[str, str]:
    """The names of the files under `top` (named from the directory above it), a package that is
    or holds the linted directory, or whose name is no identifier (no package Python could
    import, so a root itself), from the root their imports resolve under."""
    importable = os.path.basename(top).isidentifier()
    # A root below the directory above `top` drops the first parts of every name under it, so
    # an import resolves from there when those parts put in front of it make a name of `names`.
    package = os.path.basename(top) + "."
    roots = [""] if importable else []
    roots.append(package)
    has_src = is_package_dir(os.path.join(top, "src"))
    if has_src:
        roots.append(package + "src.")
    if len(roots) == 1:
        return _renamed(names, roots[0], package)
    known = set(names.values())
    resolved = [0] * len(roots)
    for imported in _absolute_imports(sources[path] for path in sorted(names)):
        for index, prefix in enumerate(roots):
            resolved[index] += prefix + imported in known or (index == 2 and package + imported in known)
        if sorted(resolved)[-2] + _SETTLED <= max(resolved):
            break
    return _renamed(names, roots[resolved.index(max(resolved))], package)


def _in_namespace_package(directory: str, names: Dict[str, str], linted: Optional[str], imports: "_ImportedNames") -> Dict[str, str]:
    """`names`, of the files in `directory` (a directory in no package, or the one above a
    top-level package), from the root above it under which the tree's imports name them most
    often: from each directory between it and the linted one, the directories below are
    namespace packages. None named from above: as they are (from `directory` itself)."""
    if linted is None or not directory.startswith(linted + os.sep):
        return names
    parts = os.path.relpath(directory, linted).split(os.sep)
    chosen, most = "", sum(imports.count(name) for name in names.values())
    for start in range(len(parts) - 1, -1, -1):
        if not parts[start].isidentifier():
            break  # no import goes through it
        prefix = ".".join(parts[start:]) + "."
        named = sum(imports.count(prefix + name) for name in names.values())
        if named and named >= most:
            chosen, most = prefix, named
    return {path: chosen + name for path, name in names.items()} if chosen else names


class _ImportedNames:
    """How often the absolute imports at the heads of the tree's files name each module (`from
    a.b import c` names `a.b`, and `a.b.c`, which may be a module), read when first asked."""

    def __init__(self, sources: Mapping[str, Union[str, bytes]]):
        self._sources = sources
        self._counts: Optional[Counter] = None

    def count(self, name: str) -> int:
        if self._counts is None:
            self._counts = Counter()
            for text in self._sources.values():
                head = text[:_HEAD]
                self._count(head if isinstance(head, bytes) else head.encode("utf-8", "surrogatepass"))
        return self._counts[name]

    def _count(self, head: bytes) -> None:
        """The import statements of `head`, found from each `import` (searched for as bytes:
        matching a pattern at every position of every file was most of the naming's time)."""
        at = head.find(b"import")
        while at != -1:
            start = head.rfind(b"\n", 0, at) + 1
            end = head.find(b"\n", at)
            match = re.compile(_IMPORTED).match(head, start)
            if match is not None and match.end() > at:
                module, member, plain = match.groups()
                if plain:
                    self._counts[plain.decode("ascii")] += 1
                else:
                    self._counts[module.decode("ascii")] += 1
                    self._counts[(module + b"." + member).decode("ascii")] += 1
            at = head.find(b"import", end) if end != -1 else -1


def _renamed(names: Dict[str, str], prefix: str, package: str) -> Dict[str, str]:
    """`names` from the root that `prefix` leads to; a file outside that root (the checkout's
    own scripts beside its `src/`) is named from the checkout."""
    if not prefix:
        return names
    return {path: _without_prefix(name, prefix if name.startswith(prefix) else package) for path, name in names.items()}


def _without_prefix(name: str, prefix: str) -> str:
    """`name` without `prefix`; the root's own `__init__.py` keeps its stem, as a file in no
    package does."""
    return name[len(prefix):] if name.startswith(prefix) else "__init__"


def _absolute_imports(texts: Iterable[Union[str, bytes]]) -> Iterable[str]:
    """The module each absolute `import` and `from ... import` statement at the head of each file
    names, file by file."""
    for text in texts:
        head = text[:_HEAD]
        data = head if isinstance(head, bytes) else head.encode("utf-8", "surrogatepass")
        for match in re.finditer(_IMPORT, data):
            yield (match.group(1) or match.group(2)).decode("ascii")
