"""Work on several cores: the per-file scan and the rule pass.

Forked workers inherit what this process built (the files' bytes; the parsed trees and the
facts) by copy-on-write instead of rebuilding or unpickling them, and send back only plain data.
Where `fork` is not available, or the work is too small to repay starting processes, it runs here.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple, TypeVar

from fsdp_lint.engine import shared_work
from fsdp_lint.analysis.project import Project
from fsdp_lint.engine.source import ParsedFile
from fsdp_lint.engine.tree_analysis import Findings, Lookups, RuleConfig, run_rules_on

RulePass = Callable[[Project, Sequence[ParsedFile], RuleConfig, Mapping[str, ParsedFile], Lookups], Findings]

# Below this many lines of parsed code (for the rule pass) or bytes of files (for the scan),
# forking costs more than it saves.
MIN_LINES = 20_000
MIN_BYTES = 2_000_000

_inherited: Optional[Tuple[Project, Sequence[ParsedFile], RuleConfig, Mapping[str, ParsedFile], Lookups]] = None

Item = TypeVar("Item")
Result = TypeVar("Result")


def job_count(jobs: int) -> int:
    """`jobs`, or one per core for 0."""
    if jobs > 0:
        return jobs
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def rule_pass(jobs: int) -> Optional[RulePass]:
    """The rule pass for `jobs` processes; None runs it in this process."""
    count = job_count(jobs)
    if count <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None

    def run(project: Project, files: Sequence[ParsedFile], config: RuleConfig, sources: Mapping[str, ParsedFile], looked_up: Lookups) -> Findings:
        if sum(file.text.count("\n") for file in files) < MIN_LINES or len(files) < 2:
            return run_rules_on(project, files, config, sources, looked_up)
        return _forked(project, files, config, sources, looked_up, min(count, len(files)))

    return run


def _forked(
    project: Project, files: Sequence[ParsedFile], config: RuleConfig, sources: Mapping[str, ParsedFile], looked_up: Lookups, count: int,
) -> Findings:
    global _inherited
    by_size = sorted(range(len(files)), key=lambda i: -len(files[i].text))
    shares: List[List[int]] = [by_size[start::count] for start in range(count)]
    _inherited = (project, files, config, sources, looked_up)
    try:
        with multiprocessing.get_context("fork").Pool(count) as pool:
            parts = pool.map(_run_share, shares)
    finally:
        _inherited = None
    merged = Findings()
    for part in parts:
        merged.violations.extend(part.violations)
        merged.internal_errors.extend(part.internal_errors)
        merged.looked_up.update(part.looked_up)
    return merged


def _run_share(indices: List[int]) -> Findings:
    assert _inherited is not None
    project, files, config, sources, looked_up = _inherited
    return run_rules_on(project, [files[i] for i in indices], config, sources, looked_up)


def fork_map(function: Callable[[Item], Result], items: Sequence[Item], jobs: int, sizes: Sequence[int]) -> List[Result]:
    """`[function(item) for item in items]` on `jobs` processes: this one and forked children
    take chunks, largest items first, from one shared position (so the work splits evenly however
    it is spread), and the children pickle their results back through a pipe. Whatever a child
    does not bring back (it failed in any way) is computed here, so an error is raised, or a
    result computed, exactly as without the children."""
    count = min(job_count(jobs), len(items))
    if count <= 1 or sum(sizes) < MIN_BYTES or not hasattr(os, "fork"):
        return [function(item) for item in items]
    order = sorted(range(len(items)), key=lambda i: -sizes[i])
    position = shared_work.shared_position()
    children = [_fork(lambda: _take(function, items, order, position)) for _ in range(count - 1)]
    try:
        done = dict(_take(function, items, order, position))
    except BaseException:
        for pid, reader in children:  # closing the pipe ends a child's write with EPIPE: it exits
            os.close(reader)
            os.waitpid(pid, 0)
        raise
    for pid, reader in children:
        done.update(_collect(pid, reader))
    return [done[index] if index in done else function(items[index]) for index in range(len(items))]


def _take(function: Callable[[Item], Result], items: Sequence[Item], order: List[int], position: Any) -> List[Tuple[int, Result]]:
    return [(index, function(items[index])) for part in shared_work.chunks(position, len(order)) for index in order[part]]


def _fork(work: Callable[[], object]) -> Tuple[int, int]:
    """A child that runs `work` and pickles what it returns into a pipe; (its pid, the read end)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller's code
        code = 1
        try:
            os.close(reader)
            with os.fdopen(writer, "wb") as out:
                pickle.dump(work(), out, protocol=pickle.HIGHEST_PROTOCOL)
            code = 0
        finally:
            os._exit(code)
    os.close(writer)
    return pid, reader


def _collect(pid: int, reader: int) -> list:
    """The child's results, read to the end before it is reaped (a full pipe would block it);
    nothing if it failed."""
    with os.fdopen(reader, "rb") as pipe:
        payload = pipe.read()
    _, status = os.waitpid(pid, 0)
    try:
        return pickle.loads(payload) if status == 0 else []
    except Exception:
        return []
