"""The part of a run that the cache did not answer whole: decode and scan the files, analyse those
that can reach FSDP2 code (or reuse the cached analysis when nothing it read changed), check the
syntax of the others, and store the result. Also the in-memory entry point's analysis.

Imported only by a run that analyses (`fsdp_lint.engine.lint`): it brings in astroid, the
analysis and the rules, which a run answered from the cache never needs.
"""

from __future__ import annotations

import ast
import logging
import time
import zlib
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from fsdp_lint.engine import parallel, syntax_check
from fsdp_lint.engine.files import Discovered
from fsdp_lint.engine.lint import LintOptions, LintResult
from fsdp_lint.engine.module_names import analysed_module_names, module_names
from fsdp_lint.engine.prefilter import FileScan
from fsdp_lint.engine.registry import all_rules
from fsdp_lint.engine.source import decode
from fsdp_lint.engine.tree_analysis import (
    InternalError, RuleConfig, SourceTree, TreeAnalysis, analyse_tree, relevant_paths, scanner,
)
from fsdp_lint.violation import Violation

if TYPE_CHECKING:
    from fsdp_lint.engine.cache import ResultCache, Status

log = logging.getLogger("fsdp_lint")


def lint_tree(
    found: Sequence[Discovered], data: Dict[str, bytes], failures: List[Violation], names: Dict[str, str],
    is_package_dir: Callable[[str], bool], options: LintOptions,
    store: Optional[ResultCache] = None, hashes: Optional[Dict[str, bytes]] = None, statuses: Optional[Mapping[str, Status]] = None,
) -> LintResult:
    """Lint the files read from disk (`data`; `failures` for those that could not be read), and
    store the result in `store` with the files' content `hashes` (none: a cold run, which hashes
    them while scanning) and `statuses` (`cache.file_status`)."""
    from fsdp_lint.engine import cache

    started = time.perf_counter()
    unreadable = [failure.path for failure in failures]
    hashes = dict(hashes or {})
    hash_while_scanning = store is not None and not hashes
    for path, raw in list(data.items()):
        text = _decoded(raw, path)
        if isinstance(text, Violation):
            failures.append(text)
            if hash_while_scanning:  # it is not scanned, but its FSD001 depends on its bytes
                hashes[path] = cache.content_hash(raw)
            del data[path]
    if len(names) != len(data):  # undecodable files left out: they no longer share a name
        names = module_names(data, is_package_dir)
    shelf = _Shelf(data)
    texts = _Texts(shelf)
    tree = SourceTree(texts, analysed_module_names(data, is_package_dir), shelf, on_disk=True, target_version=options.target_version)
    config = rule_config(options)
    phase = time.perf_counter()
    scan_errors = scan(tree, config, options.jobs, hashes if hash_while_scanning else None)
    explicit = [entry.path for entry in found if entry.explicit and entry.path in texts]
    relevant = relevant_paths(tree, config, explicit)
    tree.environment_written  # read from every file's bytes: before they are shelved
    shelf.shelve(path for path in shelf if path not in relevant)
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
        key = cache.tree_key(hashes, unreadable, names)
        store.save(key, tree, hashes, statuses or {}, analysis, relevant, result.violations, syntax)
    log.info("analysed run: %.3fs", time.perf_counter() - started)
    return result


def lint_sources(
    sources: Mapping[str, str], options: LintOptions, is_package_dir: Callable[[str], bool], syntax: Mapping[str, ast.Module],
) -> LintResult:
    """`fsdp_lint.engine.lint.lint_sources`: decoded sources keyed by their display path."""
    tree = SourceTree(dict(sources), analysed_module_names(sources, is_package_dir), target_version=options.target_version, syntax=syntax)
    config = rule_config(options)
    scan_errors = scan(tree, config, options.jobs)
    analysis = _analyse(tree, config, relevant_paths(tree, config), options)
    result = LintResult(analysis.findings.violations, scan_errors + list(analysis.findings.internal_errors), len(sources))
    result.violations = sorted(set(v for v in result.violations if options.selection.enabled(v.code, v.path)))
    return result


def scan(tree: SourceTree, config: RuleConfig, jobs: int, hashes: Optional[Dict[str, bytes]] = None) -> List[InternalError]:
    """Fill `tree.scans` with each file's byte scan, on every core for a large tree; and `hashes`,
    when given, with each file's content hash for the cache (in the same pass, as it reads the
    same bytes). Returns the crashes the scan survived."""
    scan_file = scanner(tree, config)
    paths = sorted(tree.data)
    if hashes is not None:  # imported here: a run without a cache (the flake8 plugin's) never hashes
        from fsdp_lint.engine.cache import content_hash

    def scan_and_hash(path: str) -> Tuple[bytes, Tuple[FileScan, Tuple[InternalError, ...]]]:
        return (content_hash(tree.data[path]) if hashes is not None else b""), scan_file(path)

    errors: List[InternalError] = []
    results = parallel.fork_map(scan_and_hash, paths, jobs, [len(tree.data[path]) for path in paths])
    for path, (digest, (scanned, failures)) in zip(paths, results):
        tree.scans[path] = scanned
        errors.extend(failures)
        if hashes is not None:
            hashes[path] = digest
    return errors


class _Shelf(Mapping[str, bytes]):
    """The bytes read of each file, those of the files the byte scan leaves out kept compressed
    (`shelve`) and decompressed whenever asked for, not kept. Most of a tree is never parsed, yet
    its bytes stay the run's input to the end (a later round may parse a file, the rule pass may
    scan one's imports, the syntax check reads the rest): kept whole, they were the largest
    allocation of a cold run (Automodel: 22 MiB of 1,605 files, against about 4 compressed)."""

    def __init__(self, data: Dict[str, bytes]):
        self._data = data
        self._order = list(data)  # the files' order, which module names by path depend on
        self._packed: Dict[str, bytes] = {}

    def shelve(self, paths: Iterable[str]) -> None:
        for path in list(paths):
            if path in self._data:
                self._packed[path] = zlib.compress(self._data.pop(path), 1)

    def __getitem__(self, path: str) -> bytes:
        data = self._data.get(path)
        return data if data is not None else zlib.decompress(self._packed[path])

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, path: object) -> bool:
        return path in self._data or path in self._packed


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


def _analyse(tree: SourceTree, config: RuleConfig, relevant: FrozenSet[str], options: LintOptions) -> TreeAnalysis:
    """The analysis, and FSD001 for the files it leaves unparsed (checked on another core while
    it runs, when there is one): a syntax error is reported everywhere, as ruff and flake8 do."""
    skipped = [path for path in sorted(tree.texts) if path not in relevant] if options.prefilter else []
    checked = syntax_check.start(tree.texts, tree.names, skipped, parallel.job_count(options.jobs) > 1, target=tree.target_version)
    analysis = analyse_tree(tree, config, relevant, options.prefilter, parallel.rule_pass(options.jobs))
    analysis.findings.violations.extend(checked())
    return analysis


def rule_config(options: LintOptions) -> RuleConfig:
    rule_classes = tuple(cls for code, cls in all_rules().items() if options.selection.enabled(code))
    return RuleConfig(rule_classes, tuple(options.rule_settings), options.noqa, options.apis)
