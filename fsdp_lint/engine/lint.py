"""One run of the static linter: discover and read the files, answer from the cache when nothing
that matters changed, else analyse the tree (`fsdp_lint.engine.tree_analysis`) and drop what the
selection and `# noqa` silence.

Nothing here knows a particular rule; nothing here imports torch or the linted code.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from fsdp_lint.engine import parallel, syntax_check
from fsdp_lint.analysis.declared_apis import DeclaredApis
from fsdp_lint.engine.files import Discovered, discover
from fsdp_lint.engine.module_names import module_names
from fsdp_lint.engine.prefilter import FileScan
from fsdp_lint.engine.registry import all_rules
from fsdp_lint.engine.rule import RuleSetting
from fsdp_lint.selection import Selection
from fsdp_lint.engine.source import decode, read_bytes
from fsdp_lint.engine.tree_analysis import (
    BUG_TRACKER, InternalError, RuleConfig, SourceTree, TreeAnalysis, analyse_tree, relevant_paths, scanner,
)
from fsdp_lint.violation import Violation

__all__ = ["BUG_TRACKER", "InternalError", "LintOptions", "LintResult", "lint_paths", "lint_sources"]

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


@dataclass
class LintResult:
    violations: List[Violation] = field(default_factory=list)
    internal_errors: List[InternalError] = field(default_factory=list)
    files: int = 0


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
    from fsdp_lint.engine import cache

    started = time.perf_counter()
    found = list(discover(paths, options.exclude, options.respect_gitignore))
    if buffers:
        found, buffers = _with_buffers(found, buffers)
    log.info("discovery: %d files in %.3fs", len(found), time.perf_counter() - started)
    data: Dict[str, bytes] = {}
    failures: List[Violation] = []
    for entry in found:
        read = buffers[entry.path] if entry.path in buffers else read_bytes(entry.path, entry.path)
        if isinstance(read, Violation):
            failures.append(read)
        else:
            data[entry.path] = read
    unreadable = [failure.path for failure in failures]
    names = module_names(data, _package_dir_on_disk)  # they also depend on `__init__.py` files above the paths
    workspace = list(paths) + [f"<buffer {path}>" for path in sorted(buffers)]
    store = cache.ResultCache.open(options.cache_dir, workspace, _fingerprint(options)) if options.cache_dir else None
    hashes: Dict[str, bytes] = {}
    if store is not None and store.has_entry():  # else a cold run: hash while scanning, below
        hashes = {path: cache.content_hash(raw) for path, raw in data.items()}
        hit = store.whole_run(cache.tree_key(hashes, unreadable, names))
        if hit is not None:
            log.info("cache: no file changed since the last run (%s): its findings, in %.3fs", store.path, time.perf_counter() - started)
            return LintResult(list(hit), [], len(found))
    hash_while_scanning = store is not None and not hashes
    for path, raw in list(data.items()):
        text = _decoded(raw, path)
        if isinstance(text, Violation):
            failures.append(text)
            if hash_while_scanning:  # it is not scanned, but its FSD001 depends on its bytes
                hashes[path] = cache.content_hash(raw)
            del data[path]
    texts = _Texts(data)
    if len(names) != len(data):  # undecodable files left out: they no longer share a name
        names = module_names(data, _package_dir_on_disk)
    tree = SourceTree(texts, names, data, on_disk=True, target_version=options.target_version)
    config = _rule_config(options)
    phase = time.perf_counter()
    scan_errors = _scan(tree, config, options.jobs, hashes if hash_while_scanning else None)
    explicit = [entry.path for entry in found if entry.explicit and entry.path in texts]
    relevant = relevant_paths(tree, config, explicit)
    log.info("scan: %d of %d files can reach FSDP2 code, in %.3fs", len(relevant), len(tree.texts), time.perf_counter() - phase)
    if log.isEnabledFor(logging.DEBUG):
        for path in sorted(tree.texts):
            log.debug("%s %s", "analyse" if path in relevant or not options.prefilter else "syntax check only", path)
    known = store.syntax_results(tree, hashes) if store is not None else {}
    skipped = [path for path in sorted(tree.texts) if path not in relevant and path not in known] if options.prefilter else []
    checked = syntax_check.start(tree.texts, tree.names, skipped, parallel.job_count(options.jobs) > 1, tree.data, tree.target_version)
    phase = time.perf_counter()
    analysis = store.analysis(tree, relevant, hashes) if store is not None else None
    if analysis is None:
        analysis = analyse_tree(tree, config, relevant, options.prefilter, parallel.rule_pass(options.jobs))
        log.info("analysis: %d files parsed, in %.3fs", len(analysis.parsed), time.perf_counter() - phase)
    else:
        log.info("cache: nothing the analysis depends on changed (%s): its facts reused", store.path)
    syntax = {path: found for path, found in known.items() if path not in relevant}
    syntax.update({path: None for path in skipped})
    syntax.update({violation.path: violation for violation in checked()})
    unparsable = [violation for violation in syntax.values() if violation is not None]
    errors = scan_errors + list(analysis.findings.internal_errors)
    result = LintResult(analysis.findings.violations + unparsable + failures, errors, len(found))
    result.violations = sorted(set(v for v in result.violations if options.selection.enabled(v.code, v.path)))
    if store is not None and not result.internal_errors:
        store.save(cache.tree_key(hashes, unreadable, names), tree, hashes, analysis, relevant, result.violations, syntax)
    log.info("run: %d files in %.3fs", len(found), time.perf_counter() - started)
    return result


def _scan(tree: SourceTree, config: RuleConfig, jobs: int, hashes: Optional[Dict[str, bytes]] = None) -> List[InternalError]:
    """Fill `tree.scans` with each file's byte scan, on every core for a large tree; and `hashes`,
    when given, with each file's content hash for the cache (in the same pass, as it reads the
    same bytes). Returns the crashes the scan survived."""
    scan = scanner(tree, config)
    paths = sorted(tree.data)
    if hashes is not None:  # imported here: a run without a cache (the flake8 plugin's) never hashes
        from fsdp_lint.engine.cache import content_hash

    def scan_and_hash(path: str) -> Tuple[bytes, Tuple[FileScan, Tuple[InternalError, ...]]]:
        return (content_hash(tree.data[path]) if hashes is not None else b""), scan(path)

    errors: List[InternalError] = []
    results = parallel.fork_map(scan_and_hash, paths, jobs, [len(tree.data[path]) for path in paths])
    for path, (digest, (scanned, failures)) in zip(paths, results):
        tree.scans[path] = scanned
        errors.extend(failures)
        if hashes is not None:
            hashes[path] = digest
    return errors


class _Texts(Mapping[str, str]):
    """The decoded text of each file, decoded again when asked for instead of kept: only the
    files the analysis parses (and the few the syntax check rejects) need it, and keeping every
    file twice, as bytes and as text, doubled the run's largest allocation."""

    def __init__(self, data: Mapping[str, bytes]):
        self._data = data

    def __getitem__(self, path: str) -> str:
        text = _decoded(self._data[path], path)
        assert not isinstance(text, Violation)  # undecodable files were left out
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, path: object) -> bool:
        return path in self._data


def _decoded(data: bytes, path: str) -> Union[str, Violation]:
    """Every file is decoded, relevant or not: an undecodable file is cheap to find and always worth
    an FSD001, unlike a syntax error, which needs a parse."""
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1) if first >= 0 else -1
    if data.isascii() and b"\x00" not in data and b"coding" not in (data if second < 0 else data[:second]):
        return data.decode("ascii")
    return decode(data, path)


def _package_dir_on_disk(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py"))


def lint_sources(
    sources: Mapping[str, str],
    options: LintOptions = LintOptions(),
    is_package_dir: Optional[Callable[[str], bool]] = None,
) -> LintResult:
    """Lint decoded sources keyed by their display path (the in-memory entry point)."""
    if is_package_dir is None:
        in_memory = {os.path.dirname(os.path.normpath(p)) for p in sources if os.path.basename(p) == "__init__.py"}
        is_package_dir = in_memory.__contains__
    tree = SourceTree(dict(sources), module_names(sources, is_package_dir), target_version=options.target_version)
    config = _rule_config(options)
    with _no_cyclic_gc():
        scan_errors = _scan(tree, config, options.jobs)
        analysis = _analyse(tree, config, relevant_paths(tree, config), options)
    result = LintResult(analysis.findings.violations, scan_errors + list(analysis.findings.internal_errors), len(sources))
    result.violations = sorted(set(v for v in result.violations if options.selection.enabled(v.code, v.path)))
    return result


def _analyse(tree: SourceTree, config: RuleConfig, relevant: FrozenSet[str], options: LintOptions) -> TreeAnalysis:
    """The analysis, and FSD001 for the files it leaves unparsed (checked on another core while
    it runs, when there is one): a syntax error is reported everywhere, as ruff and flake8 do."""
    skipped = [path for path in sorted(tree.texts) if path not in relevant] if options.prefilter else []
    checked = syntax_check.start(tree.texts, tree.names, skipped, parallel.job_count(options.jobs) > 1, target=tree.target_version)
    analysis = analyse_tree(tree, config, relevant, options.prefilter, parallel.rule_pass(options.jobs))
    analysis.findings.violations.extend(checked())
    return analysis


def _rule_config(options: LintOptions) -> RuleConfig:
    rule_classes = tuple(cls for code, cls in all_rules().items() if options.selection.enabled(code))
    return RuleConfig(rule_classes, tuple(options.rule_settings), options.noqa, options.apis)


def _fingerprint(options: LintOptions) -> str:
    """What besides the files decides a run's findings: the options that select and configure, and
    the grammar of the running Python (what parses, FSD001 or FSD002)."""
    apis = (sorted(options.apis.shard_functions), sorted(options.apis.optimizers))  # a set's repr changes order between runs
    return repr((options.selection, tuple(options.exclude), options.respect_gitignore, options.rule_settings,
                 options.noqa, options.prefilter, apis, options.target_version, sys.version_info[:2]))
