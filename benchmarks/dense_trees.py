"""Lint FSDP2-dense trees with fsdp-lint, cold and warm, against `ruff check` in the same run.

On the torch tree (`lint_speed.py`) almost every file is skipped unparsed; in the code bases
fsdp-lint is for, most files matter, so these trees show what the analysis itself costs. Each
round runs, tree by tree: ruff, fsdp-lint without a cache (*cold*), fsdp-lint filling a cache
directory made for the round, and fsdp-lint again from it (*warm*), every command a fresh process.
Several `--fsdp-lint` commands (another checkout of the linter, say) take turns in the same rounds,
so they share the machine's load. Memory is sampled in one extra round, as in `lint_speed.py`.

    python benchmarks/dense_trees.py /tmp/dense/torchtitan /tmp/dense/verl [--repeat 3]
    python benchmarks/dense_trees.py TREE... --fsdp-lint "after: fsdp-lint" \\
        --fsdp-lint "before: env PYTHONPATH=/tmp/linter_before python -m fsdp_lint.frontends.cli"
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import sys
import tempfile
from typing import Dict, List, Sequence, Tuple

from lint_speed import Measure, findings, python_files, run

COLD, FILL, WARM = "cold", "fill", "warm"


def linters(specs: Sequence[str]) -> List[Tuple[str, List[str]]]:
    """`LABEL: CMD` or `CMD` (labelled by its position) into (label, argv)."""
    named = []
    for index, spec in enumerate(specs):
        label, sep, command = spec.partition(": ")
        if not sep:
            label, command = (spec if len(specs) == 1 else f"#{index + 1}"), spec
        named.append((label, shlex.split(command)))
    return named


def measure_round(
    tree: str, lint: List[Tuple[str, List[str]]], ruff: List[str], workdir: str, sample: bool
) -> Dict[str, Measure]:
    """One round on one tree. The warm run's findings must equal both cold runs': a cache that
    answers differently is not fast, it is wrong."""
    measured = {"ruff": run("ruff", ruff + [tree], workdir, sample)}
    for label, command in lint:
        base = command + [tree, "--isolated", "--format", "json"]
        cache = tempfile.mkdtemp(prefix="cache-", dir=workdir)
        for kind, extra in ((COLD, ["--no-cache"]), (FILL, ["--cache-dir", cache]), (WARM, ["--cache-dir", cache])):
            measured[f"{label} {kind}"] = run(f"{label} {kind} {tree}", base + extra, workdir, sample)
        cold = findings(measured[f"{label} {COLD}"])
        if not cold == findings(measured[f"{label} {FILL}"]) == findings(measured[f"{label} {WARM}"]):
            raise SystemExit(f"{label} on {tree}: the warm run's findings differ from the cold run's")
        shutil.rmtree(cache, ignore_errors=True)
    return measured


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="trees to lint (fresh checkouts, no __pycache__)")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds; the median is reported")
    parser.add_argument(
        "--fsdp-lint", action="append", dest="lint", metavar="[LABEL: ]CMD",
        help="command that runs fsdp-lint (repeatable; default: fsdp-lint)",
    )
    args = parser.parse_args(list(argv) or None)
    ruff = shutil.which("ruff")
    if ruff is None:
        raise SystemExit("ruff is not installed (pip install ruff)")
    ruff_command = [ruff, "check", "--isolated", "--no-cache", "--select", "E9,F", "--exit-zero", "--quiet"]
    lint = linters(args.lint or ["fsdp-lint"])
    trees = [os.path.abspath(tree) for tree in args.trees]
    workdir = tempfile.mkdtemp(prefix="dense-trees-")
    times: Dict[str, List[Dict[str, Measure]]] = {tree: [] for tree in trees}
    memory: Dict[str, Dict[str, Measure]] = {}
    try:
        for attempt in range(args.repeat + 1):  # the last round samples memory
            for tree in trees:
                measured = measure_round(tree, lint, ruff_command, workdir, sample=attempt == args.repeat)
                if attempt < args.repeat:
                    times[tree].append(measured)
                else:
                    memory[tree] = measured
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{os.cpu_count()} cores, median of {args.repeat}; x = wall / ruff's wall in the same rounds")
    print(
        f"{'tree':<14} {'files':>5} {'ruff s':>7} {'linter':<10} {'cold s':>7} {'x':>6}"
        f" {'warm s':>7} {'x':>5} {'peak MB':>7} {'findings':>8}"
    )
    for tree in trees:
        median = {name: statistics.median(r[name].wall for r in times[tree]) for name in times[tree][0]}
        head = f"{os.path.basename(tree):<14} {python_files(tree):>5} {median['ruff']:>7.2f}"
        for label, _ in lint:
            cold, warm = median[f"{label} {COLD}"], median[f"{label} {WARM}"]
            peak = max(memory[tree][f"{label} {kind}"].peak_mb for kind in (COLD, FILL, WARM))
            count = len(findings(times[tree][0][f"{label} {COLD}"]))
            print(
                f"{head} {label:<10} {cold:>7.2f} {cold / median['ruff']:>6.1f} {warm:>7.2f}"
                f" {warm / median['ruff']:>5.1f} {peak:>7.0f} {count:>8}"
            )
            head = " " * len(head)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
