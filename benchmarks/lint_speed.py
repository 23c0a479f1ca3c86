"""Lint the installed torch package cold (empty cache) and warm (cache of the cold run), and run
`ruff check --no-cache --select E9,F` on the same tree in the same run, as a yardstick.

Each command runs as a fresh process, as in CI: start-up and imports count. Peak memory is the
largest sum, sampled every 5 ms, of the proportional set sizes (PSS) of the process and all its
descendants: a page a forked worker shares with its parent counts once. Reading PSS makes the
kernel walk every page of every process, a load on the same cores, so memory is sampled in
runs of its own and the timed runs are left alone.

    python benchmarks/lint_speed.py [--repeat 3] [--jobs 0] [--tree PATH]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from fsdp2_training_file import training_file

TARGETS = {"cold": 2.0, "warm": 1.0}
MEMORY_TARGET_MB = 300


@dataclass
class Measure:
    name: str
    wall: float
    peak_mb: float  # sampled PSS of the process tree (only where asked: `sample_memory`)
    exit_code: int
    stdout: bytes
    max_rss_mb: float = 0.0  # the largest resident set of the process or a descendant it waited for
    cpu: float = 0.0  # seconds of CPU, the process's and its descendants': moves less with the load than `wall`
    stderr: str = ""


def torch_tree() -> str:
    """The torch package's directory, found without importing torch (seconds, and not needed)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("torch is not installed: pass --tree PATH")
    return list(spec.submodule_search_locations)[0]


def python_files(tree: str) -> int:
    return sum(1 for _, _, names in os.walk(tree) for name in names if name.endswith((".py", ".pyi")))


def run(
    name: str, command: Sequence[str], cwd: str, sample_memory: bool = False,
    env: Optional[Mapping[str, str]] = None, stdin: bytes = b"",
) -> Measure:
    """One fresh process. Reaped with `wait4`, whose resource usage gives every run its maximum
    resident set (the kernel's high-water mark, in KiB) and CPU time for free; the sampled PSS sum
    of the whole process tree is taken only where asked, as sampling loads the cores."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        given.write(stdin)
        given.seek(0)
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=given, stdout=stdout, stderr=stderr)
        peak = 0
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG if sample_memory else 0)
            if pid:
                break
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.005)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        output, error = stdout.read(), stderr.read().decode(errors="replace")
    if process.returncode not in (0, 1):
        raise SystemExit(f"{name} failed ({process.returncode}): {' '.join(command)}\n{error}")
    cpu = usage.ru_utime + usage.ru_stime
    return Measure(name, wall, peak / 2**20, process.returncode, output, usage.ru_maxrss / 2**10, cpu, error)


def findings(measure: Measure) -> List[dict]:
    """The JSON report of a lint run. Python exits 1 on an uncaught exception too, so a run counts
    as a lint only when it printed its report: a linter that failed to start is not fast."""
    try:
        return json.loads(measure.stdout)
    except ValueError:
        raise SystemExit(f"{measure.name} printed no JSON report (exit {measure.exit_code}): did it run?") from None


def _tree_rss(pid: int) -> int:
    """Memory of `pid` and its descendants (Linux /proc): the sum of their proportional set sizes,
    which counts a page shared by a forked worker and its parent once, not twice."""
    children: Dict[int, List[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                parent = int(handle.read().rsplit(b")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        total += _pss(current)
        pending.extend(children.get(current, ()))
    return total


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def cache_bytecode(workdir: str, lint: List[Tuple[str, List[str]]]) -> None:
    """Every linter's modules compiled once, before the timed runs, into a bytecode cache of the
    run's own (`PYTHONPYCACHEPREFIX`), as an installed package's are: even where the environment
    turns caching off (`PYTHONDONTWRITEBYTECODE`), or a checkout run through `PYTHONPATH` has none,
    compiling the linter again in every process is no part of its speed (0.1 s of a warm run)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(workdir, "pycache")
    sample = os.path.join(workdir, "sample")
    os.makedirs(sample)
    with open(os.path.join(sample, "train.py"), "w") as handle:
        handle.write(training_file())
    for label, command in lint:  # a run that imports all of it: the engine, astroid, every rule
        run(f"{label} (compiling)", command + [sample, "--isolated", "--no-cache"], workdir)


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", default=None, help="tree to lint (default: the installed torch package)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command; the median is reported")
    parser.add_argument("--jobs", type=int, default=0, help="fsdp-lint --jobs (default: 0, every core)")
    args = parser.parse_args(list(argv) or None)
    tree = os.path.abspath(args.tree or torch_tree())
    ruff = shutil.which("ruff")
    if ruff is None:
        raise SystemExit("ruff is not installed (pip install ruff)")
    workdir = tempfile.mkdtemp(prefix="lint-speed-")
    files = python_files(tree)
    print(f"tree: {tree} ({files} Python files), {os.cpu_count()} cores, fsdp-lint --jobs {args.jobs}")
    cache_bytecode(workdir, [("fsdp-lint", [sys.executable, "-m", "fsdp_lint", "check"])])
    lint = [sys.executable, "-m", "fsdp_lint", "check", tree, "--format", "json", "--jobs", str(args.jobs)]
    ruff_command = [ruff, "check", "--no-cache", "--select", "E9,F", "--exit-zero", "--quiet", tree]
    results: Dict[str, List[Measure]] = {"ruff": [], "cold": [], "warm": []}
    memory: Dict[str, List[Measure]] = {"ruff": [], "cold": [], "warm": []}
    try:
        for attempt in range(args.repeat + 1):  # the last round samples memory
            measured = results if attempt < args.repeat else memory
            sample = attempt == args.repeat
            cache = os.path.join(workdir, f"cache-{attempt}")
            measured["ruff"].append(run("ruff", ruff_command, workdir, sample))
            measured["cold"].append(run("cold", lint + ["--cache-dir", cache], workdir, sample))
            measured["warm"].append(run("warm", lint + ["--cache-dir", cache], workdir, sample))
            if findings(measured["cold"][-1]) != findings(measured["warm"][-1]):
                raise SystemExit("the warm run's findings differ from the cold run's")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    ruff_wall = statistics.median(m.wall for m in results["ruff"])
    verdicts = []
    print(f"{'command':<8} {'wall s':>8} {'peak MB':>8} {'x ruff':>7}  target")
    for name in ("ruff", "cold", "warm"):
        wall = statistics.median(m.wall for m in results[name])
        peak = max(m.peak_mb for m in memory[name])
        ratio = wall / ruff_wall
        target = TARGETS.get(name)
        met = target is None or (ratio <= target and peak < MEMORY_TARGET_MB)
        verdicts.append(met)
        goal = f"<= {target:.0f}x ruff, < {MEMORY_TARGET_MB} MB: {'met' if met else 'MISSED'}" if target else ""
        print(f"{name:<8} {wall:>8.2f} {peak:>8.0f} {ratio:>7.2f}  {goal}")
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
