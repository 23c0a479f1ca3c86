"""Results kept between runs, so that an unchanged tree relints almost for free and a change
relints only when it can change the findings.

One cache file per workspace (the paths linted, from which directory, with which options and
which build of fsdp-lint). It holds two records:

- what answers a whole run: the findings of the last run, and the content hash, module name and
  status (below) of every file it read. They are reused as they are when no file changed and none
  was renamed (an `__init__.py` above the linted paths renames their modules). This record is
  unpickled alone: a run it answers imports neither astroid nor the analysis.
- what the analysis depended on, kept pickled inside the first and unpickled only when the first
  does not answer: the files it read (with their module names), every module name it looked up
  and where that led, the files the byte scan kept, and the environment variables some file of
  the tree writes (`fsdp_lint.analysis.environment`: any file, parsed or not). When some other file changed, the scan
  runs again; if it keeps the same files and none of the depended-on files or lookups changed, the
  analysis is reused and only the cheap per-file checks are redone. The rule pass, which may run
  in forked workers, parses nothing (`fsdp_lint.analysis.imported_code`), and the workers send
  back the names they looked up, so these inputs are complete.

A file's status (size, modification and change times, inode) vouches for the content hash it was
recorded with, so that a relint of an unchanged tree stats its files instead of reading and
hashing them, as ruff's and mypy's caches do; a file whose status differs is read and hashed, and
counts as changed only if its hash does (a cache restored into a fresh checkout, where every
status is new, still answers). The change time is in the status because no program can set it: a
`touch -d` or `os.utime` that puts a file's modification time back after an edit moves it. A
status recorded within `SETTLED_NS` of the file's last change vouches for nothing: the file system
keeps time in ticks (a second or two on some), so a write just after the read can leave the same
status behind (git's "racily clean" entries); such a file is hashed again on every run until a
run that stores the cache finds it settled.

A run with an internal error is never stored: its findings are incomplete.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from fsdp_lint import __version__
from fsdp_lint.violation import Violation

if TYPE_CHECKING:
    from fsdp_lint.engine.tree_analysis import SourceTree, TreeAnalysis

_FORMAT = 5

# How long before the first read of a run a file must have last changed for its status to vouch for
# its contents: more than any file system's timestamp granularity (FAT's two seconds).
SETTLED_NS = 2_000_000_000

# A file's size, modification time, change time and inode, from `os.stat`.
Status = Tuple[int, int, int, int]


@dataclass(frozen=True)
class _Run:
    """What answers a whole run, unpickled alone."""

    tree_key: str
    violations: Tuple[Violation, ...]
    files: Dict[str, Tuple[bytes, Status]]  # path -> content hash, and the status that vouches for it
    analysis: bytes  # `_Analysis`, pickled: its classes import the analysis


@dataclass(frozen=True)
class _Analysis:
    analysis: TreeAnalysis
    depends_on: Tuple[Tuple[str, bytes, str], ...]  # (path, content hash, module name)
    relevant: FrozenSet[str]
    syntax: Tuple[Tuple[str, bytes, Optional[Violation]], ...]  # unparsed files: FSD001 or None


def file_status(path: str, read_from_ns: int) -> Optional[Status]:
    """The status of `path` that can vouch for the contents read after it (stat before reading: a
    write in between then leaves a status that differs), or None where none can: the file changed
    within `SETTLED_NS` of `read_from_ns`, the wall-clock time before the run's first read, or
    cannot be statted."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    if max(status.st_mtime_ns, status.st_ctime_ns) >= read_from_ns - SETTLED_NS:
        return None
    return status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino


class ResultCache:
    def __init__(self, path: str):
        self.path = path
        self._run: Optional[_Run] = None
        self._analysis: Optional[_Analysis] = None
        self._loaded = False

    @classmethod
    def open(cls, directory: str, paths: Sequence[str], options_fingerprint: str) -> "ResultCache":
        workspace = repr((_FORMAT, __version__, _build_fingerprint(), os.getcwd(), tuple(paths), options_fingerprint))
        name = hashlib.blake2b(workspace.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
        return cls(os.path.join(directory, f"{name}.pickle"))

    def has_entry(self) -> bool:
        """Whether a last run was stored (else the run is cold: nothing to compare against)."""
        return self._load() is not None

    def recorded_hash(self, path: str, status: Optional[Status]) -> Optional[bytes]:
        """The content hash the last run recorded for `path`, if `status` (`file_status`, now)
        shows the file unchanged since; None means read and hash it."""
        run = self._load()
        recorded = run.files.get(path) if run is not None and status is not None else None
        return recorded[0] if recorded is not None and recorded[1] == status else None

    def whole_run(self, tree_key: str) -> Optional[Tuple[Violation, ...]]:
        """The findings of the last run, if it linted exactly these files with these contents."""
        run = self._load()
        return run.violations if run is not None and run.tree_key == tree_key else None

    def vouch(self, hashes: Mapping[str, bytes], statuses: Mapping[str, Status]) -> None:
        """After a run `whole_run` answered: record the statuses of the files it had to hash
        (changed and changed back, or settled since the last store), so the next run stats them
        instead. A cache restored into a fresh checkout is hashed once, not on every run."""
        run = self._load()
        if run is None:
            return
        files = dict(run.files)
        files.update((path, (hashes[path], status)) for path, status in statuses.items())
        self._write(_Run(run.tree_key, run.violations, files, run.analysis))

    def analysis(self, tree: SourceTree, relevant: FrozenSet[str], hashes: Mapping[str, bytes]) -> Optional[TreeAnalysis]:
        """The last analysis, if nothing it depended on changed (see the module docstring)."""
        entry = self._load_analysis()
        if entry is None or entry.relevant != relevant or entry.analysis.environment_written != tree.environment_written:
            return None
        for path, digest, module in entry.depends_on:
            if path not in tree.data or tree.names.get(path) != module or hashes.get(path) != digest:
                return None
        for module, path in entry.analysis.resolved.items():
            if tree.by_module.get(module) != path:
                return None
        if entry.analysis.decorators:  # the files that apply a module's decorators, parsed or not
            from fsdp_lint.engine.tree_analysis import users_of
            from fsdp_lint.engine.prefilter import import_index

            imports = import_index(tree.scans, tree.scans)
            if any(users_of(tree, module, imports) != users for module, users in entry.analysis.decorators.items()):
                return None
        return entry.analysis

    def syntax_results(self, tree: SourceTree, hashes: Mapping[str, bytes]) -> Dict[str, Optional[Violation]]:
        """The syntax check of the last run for each file whose content is unchanged."""
        entry = self._load_analysis()
        if entry is None:
            return {}
        return {path: found for path, digest, found in entry.syntax if path in tree.data and hashes.get(path) == digest}

    def save(
        self, tree_key: str, tree: SourceTree, hashes: Mapping[str, bytes], statuses: Mapping[str, Status],
        analysis: TreeAnalysis, relevant: FrozenSet[str], violations: List[Violation], syntax: Mapping[str, Optional[Violation]],
    ) -> None:
        depends_on = tuple((path, hashes[path], tree.names[path]) for path in sorted(analysis.parsed) if path in tree.data)
        checked = tuple((path, hashes[path], syntax[path]) for path in sorted(syntax) if path in tree.data)
        kept = pickle.dumps(_Analysis(analysis, depends_on, relevant, checked), protocol=pickle.HIGHEST_PROTOCOL)
        files = {path: (hashes[path], status) for path, status in statuses.items() if path in hashes}
        self._write(_Run(tree_key, tuple(violations), files, kept))

    def _write(self, run: _Run) -> None:
        import tempfile  # here: 4 ms of imports that a run answered from the cache seldom needs

        try:
            directory = os.path.dirname(self.path)
            os.makedirs(directory, exist_ok=True)
            _ignore_in_git(directory)
            handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
            with os.fdopen(handle, "wb") as out:
                pickle.dump(run, out, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self.path)  # atomic: a concurrent run reads the old or the new
        except OSError:
            pass  # a read-only tree lints fine without a cache

    def _load(self) -> Optional[_Run]:
        if not self._loaded:
            self._loaded = True
            try:
                with open(self.path, "rb") as handle:
                    run = pickle.load(handle)
                self._run = run if isinstance(run, _Run) else None
            except Exception:  # missing, truncated, or written by another version: a cold run
                self._run = None
        return self._run

    def _load_analysis(self) -> Optional[_Analysis]:
        run = self._load()
        if self._analysis is None and run is not None:
            try:
                entry = pickle.loads(run.analysis)
            except Exception:  # written by another build of the analysis's classes: a cold run
                entry = None
            self._analysis = entry if isinstance(entry, _Analysis) else None
        return self._analysis


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

