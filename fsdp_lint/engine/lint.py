"""One run of the static linter: discover the files, answer from the cache when none changed,
else analyse the tree (`fsdp_lint.engine.analysed_run`) and drop what the selection and `# noqa`
silence.

A run answered from the cache stats the files, hashes those whose status does not vouch for the
hash the cache recorded (`fsdp_lint.engine.cache`), and prints: this module imports what that
needs and no more (no astroid, no analysis, no rules), as the CLI starts every run here.

Nothing here knows a particular rule; nothing here imports torch or the linted code.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import logging
import os
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple

from fsdp_lint.analysis.declared_apis import DeclaredApis
from fsdp_lint.engine.files import Discovered, discover, read_bytes
from fsdp_lint.engine.module_names import module_names
from fsdp_lint.selection import Selection
from fsdp_lint.violation import Violation

if TYPE_CHECKING:
    from fsdp_lint.engine.cache import ResultCache, Status
    from fsdp_lint.engine.rule import RuleSetting
    from fsdp_lint.engine.tree_analysis import InternalError

__all__ = ["LintOptions", "LintResult", "lint_paths", "lint_sources"]

# `fsdp-lint -v` shows this logger: the files kept and skipped, the cache's answer, the timings.
log = logging.getLogger("fsdp_lint")


@dataclass(frozen=True)
class LintOptions:
    selection: Selection = Selection()
    exclude: Sequence[str] = ()
    respect_gitignore: bool = True
    rule_settings: Tuple[RuleSetting, ...] = ()  # `[tool.fsdp-lint.rules.CODE]` option values
    noqa: bool = True  # False where the front end applies `# noqa` itself (flake8)
    prefilter: bool = True  # parse only what the byte scan keeps and what the analysis reaches
    jobs: int = 1  # processes for the rule pass; 0 means one per core
    cache_dir: Optional[str] = None  # where results are kept between runs; None: no cache
    apis: DeclaredApis = DeclaredApis()  # `[tool.fsdp-lint.analysis]`: sharding functions, optimizers
    target_version: Optional[Tuple[int, int]] = None  # the project's oldest Python; None: not declared


class LintResult:
    """A plain class, not a dataclass, as are the engine's other records that nothing compares or
    hashes: a dataclass's generated methods are compiled when its module is imported, about 2 M
    instructions a class (3.5 M frozen), on every start of the flake8 plugin (editor latency,
    benchmarks/README.md, eighth session)."""

    __slots__ = ("violations", "internal_errors", "files")

    def __init__(self, violations: Optional[List[Violation]] = None, internal_errors: Optional[List[InternalError]] = None, files: int = 0):
        self.violations: List[Violation] = [] if violations is None else violations
        self.internal_errors: List[InternalError] = [] if internal_errors is None else internal_errors
        self.files = files


def lint_paths(paths: Sequence[str], options: LintOptions = LintOptions(), buffers: Optional[Mapping[str, bytes]] = None) -> LintResult:
    """Lint files and directories. A path that does not exist raises FileNotFoundError.

    `buffers` maps a file's path to the bytes to lint in its place (an editor's unsaved buffer,
    `fsdp-lint - --stdin-filename PATH`): the rest of the tree is read from disk, so cross-module
    facts still reach the file. A buffer's path need not exist; it is linted as if named on the
    command line, whatever the excludes say."""
    with _no_cyclic_gc():
        return _lint_paths(paths, options, buffers or {})


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """The run builds millions of long-lived objects (syntax trees, facts) and frees almost none
    before it ends, so the cyclic collector's passes find nothing while they re-walk everything
    built so far: off, they took 40% of a cold run on the torch tree. Reference counting still
    frees what the run drops."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _with_buffers(found: List[Discovered], buffers: Mapping[str, bytes]) -> Tuple[List[Discovered], Dict[str, bytes]]:
    """The discovered files with each buffer's file among them (under the path discovery gave it,
    so that module names and paths agree with a run from disk), and the buffers by that path."""
    by_location = {os.path.abspath(entry.path): index for index, entry in enumerate(found)}
    kept: Dict[str, bytes] = {}
    for path, data in buffers.items():
        index = by_location.get(os.path.abspath(path))
        if index is None:
            found.append(Discovered(path, explicit=True))
        else:
            path = found[index].path
            found[index] = Discovered(path, explicit=True)
        kept[path] = data
    return found, kept


def _lint_paths(paths: Sequence[str], options: LintOptions, buffers: Mapping[str, bytes]) -> LintResult:
    started = time.perf_counter()
    read_from = time.time_ns()  # before the first read: what a file's status vouches for (`cache.file_status`)
    found = list(discover(paths, options.exclude, options.respect_gitignore))
    if buffers:
        found, buffers = _with_buffers(found, buffers)
    log.info("discovery: %d files in %.3fs", len(found), time.perf_counter() - started)
    store = None
    if options.cache_dir:
        from fsdp_lint.engine import cache  # not in a run without a cache (the flake8 plugin's)

        workspace = list(paths) + [f"<buffer {path}>" for path in sorted(buffers)]
        store = cache.ResultCache.open(options.cache_dir, workspace, _fingerprint(options))
    files = _Files(found, buffers, store, read_from)
    names = module_names(files, _package_dir_on_disk)  # they also depend on `__init__.py` files above the paths
    if store is not None and store.has_entry():
        hit = store.whole_run(cache.tree_key(files.hashes, files.unreadable, names))
        log.info("cache: %d of %d files unchanged by their status, %d read", len(files.vouched), len(found), len(files.hashes) - len(files.vouched))
        if hit is not None:
            newly_vouched = {path: status for path, status in files.statuses.items() if path not in files.vouched}
            if newly_vouched:
                store.vouch(files.hashes, newly_vouched)
            log.info("cache: no file changed since the last run (%s): its findings, in %.3fs", store.path, time.perf_counter() - started)
            return LintResult(list(hit), [], len(found))
    from fsdp_lint.engine.analysed_run import lint_tree

    data, failures = files.read_all()
    hashes = files.content_hashes(data) if store is not None and store.has_entry() else None
    result = lint_tree(found, data, failures, names, _package_dir_on_disk, options, store, hashes, files.statuses)
    log.info("run: %d files in %.3fs", len(found), time.perf_counter() - started)
    return result


class _Files(Mapping[str, bytes]):
    """The bytes of the run's readable files, read when first asked for, and with a cache, each
    file's status and content hash. A file whose status vouches for the hash the cache recorded
    (`ResultCache.recorded_hash`) is not read unless the run is analysed, or module naming asks
    for its imports; every other file is read, and hashed where the cache has an entry to compare."""

    def __init__(self, found: Sequence[Discovered], buffers: Mapping[str, bytes], store: Optional[ResultCache], read_from: int):
        self._data: Dict[str, bytes] = {}
        self._readable: List[str] = []
        self._failures: List[Violation] = []
        self.hashes: Dict[str, bytes] = {}
        self.statuses: Dict[str, Status] = {}
        self.vouched: Set[str] = set()
        compare = store is not None and store.has_entry()
        if store is not None:
            from fsdp_lint.engine import cache
        for entry in found:
            path = entry.path
            if store is not None and path not in buffers:
                status = cache.file_status(path, read_from)
                if status is not None:
                    self.statuses[path] = status
                recorded = store.recorded_hash(path, status) if compare else None
                if recorded is not None:
                    self.hashes[path] = recorded
                    self.vouched.add(path)
                    self._readable.append(path)
                    continue
            read = buffers[path] if path in buffers else read_bytes(path, path)
            if isinstance(read, Violation):
                self._failures.append(read)
                continue
            self._data[path] = read
            self._readable.append(path)
            if compare:
                self.hashes[path] = cache.content_hash(read)

    @property
    def unreadable(self) -> List[str]:
        return [failure.path for failure in self._failures]

    def read_all(self) -> Tuple[Dict[str, bytes], List[Violation]]:
        """Every file's bytes, and the files that could not be read (a vouched-for file removed since).
        The bytes are handed over, not kept here too: the run shelves those of the files it does
        not analyse (`analysed_run._Shelf`), which frees them only if nothing else holds them."""
        failures = list(self._failures)
        data: Dict[str, bytes] = {}
        for path in self._readable:
            read = self._data.pop(path) if path in self._data else read_bytes(path, path)
            if isinstance(read, Violation):
                failures.append(read)
            else:
                data[path] = read
        return data, failures

    def content_hashes(self, data: Mapping[str, bytes]) -> Dict[str, bytes]:
        """The content hash of each file of `data` (`read_all`'s): the hashes of the files read to
        compare them with the cache's, and the others' from their bytes (a status vouches for the
        cache's hash, not for the bytes read since)."""
        from fsdp_lint.engine.cache import content_hash

        return {path: self.hashes[path] if path in self.hashes and path not in self.vouched else content_hash(raw) for path, raw in data.items()}

    def __getitem__(self, path: str) -> bytes:
        if path not in self._data:
            read = read_bytes(path, path)
            if isinstance(read, Violation):
                return b""  # gone since it was statted: `read_all` reports it
            self._data[path] = read
        return self._data[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._readable)

    def __len__(self) -> int:
        return len(self._readable)


def _package_dir_on_disk(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py"))


def lint_sources(
    sources: Mapping[str, str],
    options: LintOptions = LintOptions(),
    is_package_dir: Optional[Callable[[str], bool]] = None,
    syntax: Optional[Mapping[str, ast.Module]] = None,
) -> LintResult:
    """Lint decoded sources keyed by their display path (the in-memory entry point). `syntax`:
    the syntax trees (`ast.parse`) of some of them, by path, where the caller has them already
    (the flake8 plugin is handed flake8's): they are not parsed again, nor changed."""
    from fsdp_lint.engine import analysed_run

    if is_package_dir is None:
        in_memory = {os.path.dirname(os.path.abspath(p)) for p in sources if os.path.basename(p) == "__init__.py"}
        is_package_dir = in_memory.__contains__
    with _no_cyclic_gc():
        return analysed_run.lint_sources(sources, options, is_package_dir, syntax or {})


def _fingerprint(options: LintOptions) -> str:
    """What besides the files decides a run's findings: the options that select and configure, and
    the grammar of the running Python (what parses, FSD001 or FSD002)."""
    apis = (sorted(options.apis.shard_functions), sorted(options.apis.optimizers))  # a set's repr changes order between runs
    return repr((options.selection, tuple(options.exclude), options.respect_gitignore, options.rule_settings,
                 options.noqa, options.prefilter, apis, options.target_version, sys.version_info[:2]))
