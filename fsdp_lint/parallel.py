"""The rule pass on several cores.

The facts are computed once, in this process; the rule pass then runs in forked workers, which
inherit the parsed trees and the facts by copy-on-write instead of rebuilding or unpickling them,
and send back only their findings (plain data). Where `fork` is not available, or the tree is too
small to repay starting processes, the pass runs here.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Callable, List, Optional, Sequence, Tuple

from fsdp_lint.analysis.project import Project
from fsdp_lint.source import ParsedFile
from fsdp_lint.tree_analysis import Findings, RuleConfig, run_rules_on

RulePass = Callable[[Project, Sequence[ParsedFile], RuleConfig], Findings]

# Below this many lines of parsed code, forking costs more than it saves.
MIN_LINES = 20_000

_inherited: Optional[Tuple[Project, Sequence[ParsedFile], RuleConfig]] = None


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

    def run(project: Project, files: Sequence[ParsedFile], config: RuleConfig) -> Findings:
        if sum(file.text.count("\n") for file in files) < MIN_LINES or len(files) < 2:
            return run_rules_on(project, files, config)
        return _forked(project, files, config, min(count, len(files)))

    return run


def _forked(project: Project, files: Sequence[ParsedFile], config: RuleConfig, count: int) -> Findings:
    global _inherited
    by_size = sorted(range(len(files)), key=lambda i: -len(files[i].text))
    shares: List[List[int]] = [by_size[start::count] for start in range(count)]
    _inherited = (project, files, config)
    try:
        with multiprocessing.get_context("fork").Pool(count) as pool:
            parts = pool.map(_run_share, shares)
    finally:
        _inherited = None
    merged = Findings()
    for part in parts:
        merged.violations.extend(part.violations)
        merged.internal_errors.extend(part.internal_errors)
    return merged


def _run_share(indices: List[int]) -> Findings:
    assert _inherited is not None
    project, files, config = _inherited
    return run_rules_on(project, [files[i] for i in indices], config)
