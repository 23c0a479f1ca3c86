"""Lint FSDP2-dense trees with fsdp-lint, cold and warm, against `ruff check` in the same run.

On the torch tree (`lint_speed.py`) almost every file is skipped unparsed; in the code bases
fsdp-lint is for, most files matter, so these trees show what the analysis itself costs. Each
round runs, tree by tree: ruff, fsdp-lint without a cache (*cold*), fsdp-lint filling a cache
directory made for the round, fsdp-lint again from it (*warm*), and fsdp-lint from it once more
after one FSDP2 file of the tree was edited (*edit*: `; _fsdp_lint_bench = 0`, a local assignment,
added to a statement of the body of a function that calls `fully_shard` in `EDITED`'s file, as a
pull request edits a function; restored right after), every command
a fresh process. Several `--fsdp-lint` commands (another checkout of the linter, say) take turns
in the same rounds, so they share the machine's load. Every run's maximum resident set comes from
`wait4`; the PSS of the process tree is sampled in one extra round, as in `lint_speed.py`. The
linters' bytecode is compiled once before the timed rounds (`cache_bytecode`).

    python benchmarks/dense_trees.py /tmp/dense/torchtitan /tmp/dense/verl [--repeat 3]
    python benchmarks/dense_trees.py TREE... --fsdp-lint "after: fsdp-lint" \\
        --fsdp-lint "before: env PYTHONPATH=/tmp/linter_before python -m fsdp_lint.frontends.cli"
    python benchmarks/dense_trees.py /tmp/other --edit other=pkg/parallel.py
    python benchmarks/dense_trees.py TREE... --warm-only --repeat 15   # relints alone, from caches filled once
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import shlex
import shutil
import statistics
import sys
import tempfile
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from lint_speed import Measure, cache_bytecode, findings, python_files, run

COLD, FILL, WARM, EDIT = "cold", "fill", "warm", "edit"

# The FSDP2 file edited in each tree (by the tree's directory name): one that calls `fully_shard`
# and that the rest of the tree imports, so an edit there reaches the most of the analysis.
EDITED = {
    "torchtitan": "torchtitan/distributed/fsdp.py",
    "verl": "verl/utils/fsdp_utils.py",
    "accelerate": "src/accelerate/utils/fsdp_utils.py",
    "torchtune": "torchtune/training/_distributed.py",
}
# Added after a statement of a function's body, on its line: a new local that changes none of the
# findings (the cold run's must come back, lines and columns included), but the function's code, so
# a cache can answer neither the run nor that function unchanged.
EDIT_STATEMENT = b"; _fsdp_lint_bench = 0"


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
    tree: str, lint: List[Tuple[str, List[str]]], ruff: List[str], workdir: str, sample: bool, edited: Optional[str]
) -> Dict[str, Measure]:
    """One round on one tree. The warm and edit runs' findings must equal the cold run's: a cache
    that answers differently is not fast, it is wrong."""
    measured = {"ruff": run("ruff", ruff + [tree], workdir, sample)}
    for label, command in lint:
        base = command + [tree, "--isolated", "--format", "json"]
        cache = tempfile.mkdtemp(prefix="cache-", dir=workdir)
        for kind, extra in ((COLD, ["--no-cache"]), (FILL, ["--cache-dir", cache]), (WARM, ["--cache-dir", cache])):
            measured[f"{label} {kind}"] = run(f"{label} {kind} {tree}", base + extra, workdir, sample)
        if edited is not None:
            with edited_body(os.path.join(tree, edited)):
                measured[f"{label} {EDIT}"] = run(f"{label} {EDIT} {tree}", base + ["--cache-dir", cache], workdir, sample)
        cold = findings(measured[f"{label} {COLD}"])
        for kind in (FILL, WARM, EDIT):
            if f"{label} {kind}" in measured and findings(measured[f"{label} {kind}"]) != cold:
                raise SystemExit(f"{label} on {tree}: the {kind} run's findings differ from the cold run's")
        shutil.rmtree(cache, ignore_errors=True)
    return measured


def fill_caches(trees: Sequence[str], lint: List[Tuple[str, List[str]]], workdir: str) -> Dict[Tuple[str, str], Tuple[str, Measure]]:
    """`--warm-only`: each linter fills a cache directory of its own for each tree, once, before
    the rounds; (label, tree) -> the directory and the fill's run."""
    filled = {}
    for tree in trees:
        for label, command in lint:
            cache = tempfile.mkdtemp(prefix="cache-", dir=workdir)
            fill = run(f"{label} {FILL} {tree}", command + [tree, "--isolated", "--format", "json", "--cache-dir", cache], workdir)
            filled[(label, tree)] = cache, fill
    return filled


def measure_warm_round(
    tree: str, lint: List[Tuple[str, List[str]]], ruff: List[str], workdir: str, sample: bool,
    filled: Dict[Tuple[str, str], Tuple[str, Measure]],
) -> Dict[str, Measure]:
    """One `--warm-only` round on one tree: ruff, then each linter relinting from the cache it
    filled (`fill_caches`); the warm run's findings must equal the fill's."""
    measured = {"ruff": run("ruff", ruff + [tree], workdir, sample)}
    for label, command in lint:
        cache, fill = filled[(label, tree)]
        warm = run(f"{label} {WARM} {tree}", command + [tree, "--isolated", "--format", "json", "--cache-dir", cache], workdir, sample)
        if findings(warm) != findings(fill):
            raise SystemExit(f"{label} on {tree}: the warm run's findings differ from the fill's")
        measured[f"{label} {WARM}"] = warm
    return measured


@contextlib.contextmanager
def edited_body(path: str) -> Iterator[None]:
    """`path` with a statement of a function's body edited (`body_edit`), restored to its bytes and
    its modification time after (the tree stays a faithful checkout, whatever interrupts the run)."""
    with open(path, "rb") as handle:
        original = handle.read()
    status = os.stat(path)
    try:
        with open(path, "wb") as handle:
            handle.write(body_edit(original, path))
        yield
    finally:
        with open(path, "wb") as handle:
            handle.write(original)
        os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))


def body_edit(source: bytes, path: str = "<file>") -> bytes:
    """`source` with `EDIT_STATEMENT` after the first statement of the body of its first function
    (outermost first) that calls `fully_shard`: a simple statement, after its docstring, that ends
    its line (nothing but a comment after it), so no finding moves, not even by a column."""
    lines = source.splitlines(keepends=True)
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not _calls_fully_shard(function):
            continue
        for statement in function.body:
            if isinstance(statement, _COMPOUND) or _is_docstring(statement) or statement.end_lineno is None:
                continue
            line = lines[statement.end_lineno - 1]
            end = statement.end_col_offset or 0
            rest = line[end:].strip()
            if not rest or rest.startswith(b"#"):
                lines[statement.end_lineno - 1] = line[:end] + EDIT_STATEMENT + line[end:]
                return b"".join(lines)
    raise SystemExit(f"{path}: no function that calls fully_shard has a statement to edit")


_COMPOUND = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With,
    ast.AsyncWith, ast.Try, ast.Match, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()),
)


def _calls_fully_shard(function: ast.AST) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            callee = node.func
            if (isinstance(callee, ast.Name) and callee.id == "fully_shard") or (isinstance(callee, ast.Attribute) and callee.attr == "fully_shard"):
                return True
    return False


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)


def edited_files(trees: Sequence[str], overrides: Sequence[str]) -> Dict[str, Optional[str]]:
    """The file each tree's edit scenario edits (`EDITED`, or `--edit NAME=PATH`); None: no
    edit scenario for that tree."""
    chosen = dict(EDITED)
    for override in overrides:
        name, sep, path = override.partition("=")
        if not sep:
            raise SystemExit(f"--edit {override}: expected NAME=PATH")
        chosen[name] = path
    files = {tree: chosen.get(os.path.basename(tree)) for tree in trees}
    for tree, path in files.items():
        if path is not None and not os.path.isfile(os.path.join(tree, path)):
            raise SystemExit(f"{tree}: the file to edit, {path}, is not there")
    return files


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="trees to lint (fresh checkouts, no __pycache__)")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds; the median is reported")
    parser.add_argument(
        "--fsdp-lint", action="append", dest="lint", metavar="[LABEL: ]CMD",
        help="command that runs fsdp-lint (repeatable; default: fsdp-lint)",
    )
    parser.add_argument(
        "--edit", action="append", default=[], metavar="NAME=PATH",
        help="the file of tree NAME (its directory's name) whose function the edit scenario edits, relative to the tree",
    )
    parser.add_argument(
        "--warm-only", action="store_true",
        help="time ruff and the warm runs alone, each linter relinting from a cache it filled once before the rounds",
    )
    args = parser.parse_args(list(argv) or None)
    ruff = shutil.which("ruff")
    if ruff is None:
        raise SystemExit("ruff is not installed (pip install ruff)")
    ruff_command = [ruff, "check", "--isolated", "--no-cache", "--select", "E9,F", "--exit-zero", "--quiet"]
    lint = linters(args.lint or ["fsdp-lint"])
    trees = [os.path.abspath(tree) for tree in args.trees]
    edited = edited_files(trees, args.edit)
    workdir = tempfile.mkdtemp(prefix="dense-trees-")
    cache_bytecode(workdir, lint)
    times: Dict[str, List[Dict[str, Measure]]] = {tree: [] for tree in trees}
    memory: Dict[str, Dict[str, Measure]] = {}
    try:
        filled = fill_caches(trees, lint, workdir) if args.warm_only else {}
        for attempt in range(args.repeat + 1):  # the last round samples memory
            for tree in trees:
                sample = attempt == args.repeat
                if args.warm_only:
                    measured = measure_warm_round(tree, lint, ruff_command, workdir, sample, filled)
                else:
                    measured = measure_round(tree, lint, ruff_command, workdir, sample, edited[tree])
                if attempt < args.repeat:
                    times[tree].append(measured)
                else:
                    memory[tree] = measured
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{os.cpu_count()} cores, median of {args.repeat}; x = wall / ruff's wall in the same rounds")
    print("max RSS: the largest resident set of one process of the run (cold/warm/edit, the most over the rounds)")
    print(
        f"{'tree':<14} {'files':>5} {'ruff s':>7} {'linter':<10} {'cold s':>7} {'x':>6}"
        f" {'warm s':>7} {'x':>5} {'peak MB':>7} {'findings':>8} {'edit s':>7} {'x':>5} {'max RSS MB':>14}"
    )
    for tree in trees:
        median = {name: statistics.median(r[name].wall for r in times[tree]) for name in times[tree][0]}
        head = f"{os.path.basename(tree):<14} {python_files(tree):>5} {median['ruff']:>7.3f}"
        for label, _ in lint:
            cold, warm = median.get(f"{label} {COLD}"), median[f"{label} {WARM}"]
            peak = max(m.peak_mb for kind, m in memory[tree].items() if kind.startswith(f"{label} "))
            count = len(findings(times[tree][0][f"{label} {WARM}"]))
            cold_columns = f"{cold:>7.2f} {cold / median['ruff']:>6.1f}" if cold is not None else f"{'-':>7} {'-':>6}"
            edit = median.get(f"{label} {EDIT}")
            edit_columns = f"{edit:>7.2f} {edit / median['ruff']:>5.1f}" if edit is not None else f"{'-':>7} {'-':>5}"
            rss = "/".join(
                f"{max(r[f'{label} {kind}'].max_rss_mb for r in times[tree]):.0f}" if f"{label} {kind}" in median else "-"
                for kind in (COLD, WARM, EDIT)
            )
            print(
                f"{head} {label:<10} {cold_columns} {warm:>7.3f}"
                f" {warm / median['ruff']:>5.1f} {peak:>7.0f} {count:>8} {edit_columns} {rss:>14}"
            )
            head = " " * len(head)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
