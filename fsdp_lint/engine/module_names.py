"""Dotted module names, given the way Python gives them to a project run from its checkout, so
that the tree's own absolute imports resolve to its files.

A file's name starts at an import root. The usual root is the directory above the top-level
package (`src/pkg/x.py` is `pkg.x`; a linted `site-packages/torch` keeps `torch.`). A checkout
with a stray `__init__.py` at its top (a ComfyUI plugin, a habit) moves that root one level up,
to a directory Python never imports from: run from the checkout, `from allamo.trainer import ...`
finds `<checkout>/allamo/trainer`. So for each top-level package the roots Python could have on
`sys.path` are weighed: the directory above it, the package itself (the checkout) and its `src/`,
and the one under which the package's own imports resolve is kept.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Callable, Dict, Iterable, Mapping, Optional, Tuple, Union

_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w.]*))", re.M)
_SETTLED = 5  # imports by which one root must lead the others for the rest to be left unread
_HEAD = 8192  # bytes of each file read for its imports: a file's imports open it (a 1 MB stub has few)


def _named(path: str, is_package_dir: Callable[[str], bool]) -> Tuple[str, Optional[str]]:
    """The file's stem prefixed by every enclosing package directory, and the outermost of these
    (None for a file in no package)."""
    directory, filename = os.path.split(os.path.normpath(path))
    stem = filename.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    top = None
    while directory and is_package_dir(directory):
        top = directory
        directory, package = os.path.split(directory)
        if not package:  # the file system's root
            break
        parts.insert(0, package)
    return ".".join(parts) or stem, top


def module_names(sources: Mapping[str, Union[str, bytes]], is_package_dir: Callable[[str], bool]) -> Dict[str, str]:
    """Dotted names by path; scripts that share a name (many `train.py`) get their directory path."""
    is_package_dir = functools.lru_cache(maxsize=None)(is_package_dir)  # asked once per file and level
    by_top: Dict[Optional[str], Dict[str, str]] = {}
    directories = set()
    for path in sources:
        name, top = _named(path, is_package_dir)
        by_top.setdefault(top, {})[path] = name
        directories.add(os.path.dirname(os.path.normpath(path)))
    linted = _common_directory(directories)
    names: Dict[str, str] = {}
    for top, group in by_top.items():
        if top is not None:
            group = _from_import_root(top, group, sources, is_package_dir, linted)
        names.update(group)
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
                      is_package_dir: Callable[[str], bool], linted: Optional[str]) -> Dict[str, str]:
    """The names of the files under `top` (named from the directory above it) from the root
    their imports resolve under. A package below the linted directory has that directory above
    it, a root either way; a directory whose name is no identifier is no package Python could
    import, so it is a root itself."""
    importable = os.path.basename(top).isidentifier()
    if importable and (linted is None or not (linted == top or linted.startswith(top + os.sep))):
        return names
    checkout = {path: _without_prefix(name, 1) for path, name in names.items()}
    namings = [names, checkout] if importable else [checkout]
    if is_package_dir(os.path.join(top, "src")):
        src = os.path.join(top, "src") + os.sep
        namings.append({path: _without_prefix(name, 2) if os.path.normpath(path).startswith(src) else checkout[path]
                        for path, name in names.items()})
    if len(namings) == 1:
        return checkout
    known = [set(naming.values()) for naming in namings]
    resolved = [0] * len(namings)
    for imported in _absolute_imports(sources[path] for path in sorted(names)):
        for index, naming in enumerate(known):
            resolved[index] += imported in naming
        if sorted(resolved)[-2] + _SETTLED <= max(resolved):
            break
    return namings[resolved.index(max(resolved))]


def _without_prefix(name: str, count: int) -> str:
    """`name` with its first `count` parts removed; the root's own `__init__.py` keeps its stem, as
    a file in no package does."""
    return ".".join(name.split(".")[count:]) or "__init__"


def _absolute_imports(texts: Iterable[Union[str, bytes]]) -> Iterable[str]:
    """The module each absolute `import` and `from ... import` statement at the head of each file
    names, file by file."""
    for text in texts:
        head = text[:_HEAD]
        data = head if isinstance(head, bytes) else head.encode("utf-8", "surrogatepass")
        for match in _IMPORT.finditer(data):
            yield (match.group(1) or match.group(2)).decode("ascii")
