"""Results kept between runs, so that an unchanged tree relints almost for free and a change
relints only when it can change the findings.

One cache file per workspace (the paths linted, from which directory, with which options and
which build of fsdp-lint). It holds the content hash and module name of every file of the last
run and:

- the findings of that run: reused as they are when no file changed and none was renamed (an
  `__init__.py` above the linted paths renames their modules);
- what the analysis depended on: the files it read (with their module names), every module name
  it looked up and where that led, and the files the byte scan kept. When some other file
  changed, the scan runs again; if it keeps the same files and none of the depended-on files or
  lookups changed, the analysis is reused and only the cheap per-file checks are redone. The rule
  pass, which may run in forked workers, parses nothing (`fsdp_lint.analysis.imported_code`), and
  the workers send back the names they looked up, so these inputs are complete.

A run with an internal error is never stored: its findings are incomplete.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from fsdp_lint import __version__
from fsdp_lint.engine.tree_analysis import SourceTree, TreeAnalysis
from fsdp_lint.violation import Violation

_FORMAT = 3


@dataclass(frozen=True)
class _Entry:
    tree_key: str
    violations: Tuple[Violation, ...]
    analysis: TreeAnalysis
    depends_on: Tuple[Tuple[str, bytes, str], ...]  # (path, content hash, module name)
    relevant: FrozenSet[str]
    syntax: Tuple[Tuple[str, bytes, Optional[Violation]], ...]  # unparsed files: FSD001 or None


class ResultCache:
    def __init__(self, path: str):
        self.path = path
        self._entry: Optional[_Entry] = None
        self._loaded = False

    @classmethod
    def open(cls, directory: str, paths: Sequence[str], options_fingerprint: str) -> "ResultCache":
        workspace = repr((_FORMAT, __version__, _build_fingerprint(), os.getcwd(), tuple(paths), options_fingerprint))
        name = hashlib.blake2b(workspace.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
        return cls(os.path.join(directory, f"{name}.pickle"))

    def has_entry(self) -> bool:
        """Whether a last run was stored (else the run is cold: nothing to compare against)."""
        return self._load() is not None

    def whole_run(self, tree_key: str) -> Optional[Tuple[Violation, ...]]:
        """The findings of the last run, if it linted exactly these files with these contents."""
        entry = self._load()
        return entry.violations if entry is not None and entry.tree_key == tree_key else None

    def analysis(self, tree: SourceTree, relevant: FrozenSet[str], hashes: Mapping[str, bytes]) -> Optional[TreeAnalysis]:
        """The last analysis, if nothing it depended on changed (see the module docstring)."""
        entry = self._load()
        if entry is None or entry.relevant != relevant:
            return None
        for path, digest, module in entry.depends_on:
            if path not in tree.data or tree.names.get(path) != module or hashes.get(path) != digest:
                return None
        for module, path in entry.analysis.resolved.items():
            if tree.by_module.get(module) != path:
                return None
        return entry.analysis

    def syntax_results(self, tree: SourceTree, hashes: Mapping[str, bytes]) -> Dict[str, Optional[Violation]]:
        """The syntax check of the last run for each file whose content is unchanged."""
        entry = self._load()
        if entry is None:
            return {}
        return {path: found for path, digest, found in entry.syntax if path in tree.data and hashes.get(path) == digest}

    def save(
        self, tree_key: str, tree: SourceTree, hashes: Mapping[str, bytes], analysis: TreeAnalysis,
        relevant: FrozenSet[str], violations: List[Violation], syntax: Mapping[str, Optional[Violation]],
    ) -> None:
        depends_on = tuple((path, hashes[path], tree.names[path]) for path in sorted(analysis.parsed) if path in tree.data)
        checked = tuple((path, hashes[path], syntax[path]) for path in sorted(syntax) if path in tree.data)
        entry = _Entry(tree_key, tuple(violations), analysis, depends_on, relevant, checked)
        try:
            directory = os.path.dirname(self.path)
            os.makedirs(directory, exist_ok=True)
            _ignore_in_git(directory)
            handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
            with os.fdopen(handle, "wb") as out:
                pickle.dump(entry, out, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self.path)  # atomic: a concurrent run reads the old or the new
        except OSError:
            pass  # a read-only tree lints fine without a cache

    def _load(self) -> Optional[_Entry]:
        if not self._loaded:
            self._loaded = True
            try:
                with open(self.path, "rb") as handle:
                    entry = pickle.load(handle)
                self._entry = entry if isinstance(entry, _Entry) else None
            except Exception:  # missing, truncated, or written by another version: a cold run
                self._entry = None
        return self._entry


def content_hash(data: bytes) -> bytes:
    """SHA-256, cut to 16 bytes: CPUs hash it in hardware (SHA extensions, ARMv8 crypto), twice as
    fast as BLAKE2b, and a cold run hashes every file of the tree."""
    return hashlib.sha256(data).digest()[:16]


def tree_key(hashes: Mapping[str, bytes], unreadable: Iterable[str], names: Mapping[str, str]) -> str:
    """One key for every file's path, content hash and module name (which `__init__.py` files
    outside the linted paths decide too), and the paths that could not be read."""
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(hashes):
        digest.update(path.encode("utf-8", "surrogatepass") + b"\0" + hashes[path] + b"\0" + names.get(path, "").encode("utf-8", "surrogatepass") + b"\0")
    for path in sorted(unreadable):
        digest.update(b"\1" + path.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _build_fingerprint() -> str:
    """A hash of every source file of fsdp-lint and its rules: an edited rule (a development
    install) never answers from a stale cache, and a reinstall of the same build still does (CI
    restores the cache into a fresh environment, whose files all have new modification times)."""
    import fsdp_lint
    import fsdp_lint.rules

    digest = hashlib.sha256()
    for package in (fsdp_lint, fsdp_lint.rules):
        root = os.path.dirname(package.__file__)
        for directory, subdirectories, files in os.walk(root):
            subdirectories.sort()
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(directory, name)
                    with open(path, "rb") as handle:
                        digest.update(os.path.relpath(path, root).encode("utf-8", "surrogatepass") + b"\0" + handle.read())
    return digest.hexdigest()


def _ignore_in_git(directory: str) -> None:
    marker = os.path.join(directory, ".gitignore")
    if not os.path.exists(marker):
        with open(marker, "w", encoding="utf-8") as handle:
            handle.write("# Created by fsdp-lint automatically.\n*\n")

