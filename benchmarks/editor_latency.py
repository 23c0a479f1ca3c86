"""What the flake8 plugin adds to flake8's answer on one FSDP2 training file, as an editor runs it.

An editor runs flake8 on the file being edited after each change: a fresh process on one file,
every time. This runs, in the same rounds and alternating (the order flipped every round),

- *flake8*: `flake8 --select=E9,F FILE` with the fsdp-lint plugin taken out of flake8's plugin list;
- *flake8 + FSD*: `flake8 --select=FSD,E9,F FILE` with every plugin, as installed;

on a generated 1,000-line FSDP2 trainer (`fsdp2_training_file.py`), and prints the medians, their
difference (the plugin's cost: its imports, reading the configuration, the analysis) and their
ratio. Target (issue 16): a difference <= 0.2 s.

flake8 runs every installed plugin on every file whatever `--select` says, and `F` selects `FSD`
too (codes match by prefix), so an installed plugin cannot be left out by a selection: the
baseline removes it from the plugins flake8 finds, in the same launcher both commands go through.

    python benchmarks/editor_latency.py [--repeat 15] [--lines 1000] [--stdin] [--file PATH] [--instructions]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
from typing import Dict, List, Sequence, Set

from fsdp2_training_file import training_file
from lint_speed import Measure, run

TARGET_S = 0.2

# Runs flake8's command line; with WITHOUT_FSDP_LINT set, the fsdp-lint plugin is not among the
# plugins it finds (so it is neither imported nor run).
_LAUNCHER = """\
import os, sys
if os.environ.get("WITHOUT_FSDP_LINT"):
    from flake8.plugins import finder
    found = finder.find_plugins
    finder.find_plugins = lambda *a, **k: [p for p in found(*a, **k) if p.package != "fsdp-lint"]
from flake8.main.cli import main
sys.exit(main())
"""


def flake8(args: List[str], cwd: str, plugin: bool, stdin: bytes, prefix: Sequence[str] = ()) -> Measure:
    """One flake8 run, under `prefix` (a profiler) if given."""
    # Bytecode is cached (under the work directory, filled by the untimed first round), as an
    # installed package's is, even where the environment turns caching off: compiling the linter's
    # modules again on every start is no part of an editor's answer.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(cwd, "pycache")
    if not plugin:
        env["WITHOUT_FSDP_LINT"] = "1"
    command = [*prefix, sys.executable, "-c", _LAUNCHER, "--isolated", *args]
    done = run("flake8", command, cwd, env=env, stdin=stdin)
    if done.stderr and not prefix:  # the plugin's internal errors go there
        raise SystemExit(f"flake8 wrote to stderr: {done.stderr}")
    return done


def instructions(args: List[str], cwd: str, plugin: bool, stdin: bytes) -> int:
    """The instructions one run executes, counted by valgrind's callgrind: the same from run to run
    whatever else the machine runs (about 15 s a run)."""
    report = flake8(args, cwd, plugin, stdin, ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]).stderr
    counted = re.search(r"Collected : (\d+)", report)
    if counted is None:
        raise SystemExit(f"valgrind counted nothing:\n{report}")
    return int(counted.group(1))


def code_of(line: str) -> str:
    """The code of a line of flake8's default format, `PATH:ROW:COL: CODE message`."""
    return line.split(":", 3)[3].split()[0]


def codes(output: str) -> Set[str]:
    return {code_of(line) for line in output.splitlines()}


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="rounds; the medians are reported (default 15)")
    parser.add_argument("--lines", type=int, default=1000, help="length of the generated file (default 1000)")
    parser.add_argument("--file", default=None, help="lint this file instead of a generated one")
    parser.add_argument("--stdin", action="store_true", help="pass the file on stdin, as editors send unsaved buffers")
    parser.add_argument("--instructions", action="store_true", help="also count each command's instructions once (valgrind)")
    args = parser.parse_args(list(argv) or None)
    workdir = tempfile.mkdtemp(prefix="editor-latency-")
    try:
        return _measure(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _measure(args: argparse.Namespace, workdir: str) -> int:
    path = os.path.abspath(args.file) if args.file else os.path.join(workdir, "train.py")
    if not args.file:
        with open(path, "w") as handle:
            handle.write(training_file(args.lines))
    with open(path, "rb") as handle:
        source = handle.read()
    target = ["--stdin-display-name", path, "-"] if args.stdin else [path]
    stdin = source if args.stdin else b""
    commands = {"flake8": (["--select=E9,F", *target], False), "flake8 + FSD": (["--select=FSD,E9,F", *target], True)}
    walls: Dict[str, List[float]] = {name: [] for name in commands}
    cpus: Dict[str, List[float]] = {name: [] for name in commands}
    outputs: Dict[str, str] = {}
    order = list(commands)
    for round_ in range(args.repeat + 1):  # round 0 is untimed: it warms the disk and bytecode caches
        for name in order:
            done = flake8(commands[name][0], workdir, commands[name][1], stdin)
            outputs[name] = done.stdout.decode()
            if round_:
                walls[name].append(done.wall)
                cpus[name].append(done.cpu)
        order.reverse()
    plain, with_plugin = codes(outputs["flake8"]), codes(outputs["flake8 + FSD"])
    if any(code.startswith("FSD") for code in plain) or plain != {c for c in with_plugin if not c.startswith("FSD")}:
        raise SystemExit("the baseline ran the plugin, or the plugin changed flake8's own findings")
    fsd = [line for line in outputs["flake8 + FSD"].splitlines() if code_of(line).startswith("FSD")]
    lines = source.count(b"\n")
    print(f"{path}: {lines} lines{' on stdin' if args.stdin else ''}; {os.cpu_count()} cores; median of {args.repeat}")
    medians = {name: statistics.median(values) for name, values in walls.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}
    print(f"{'':<14} {'wall s':>7} {'CPU s':>7}")
    for name in commands:
        print(f"{name:<14} {medians[name]:>7.3f} {cpu[name]:>7.3f}")
    difference = medians["flake8 + FSD"] - medians["flake8"]
    verdict = "met" if difference <= TARGET_S else "MISSED"
    print(f"{'difference':<14} {difference:>7.3f} {cpu['flake8 + FSD'] - cpu['flake8']:>7.3f}  (target: wall <= {TARGET_S} s: {verdict})")
    print(f"{'ratio':<14} {medians['flake8 + FSD'] / medians['flake8']:>7.2f} {cpu['flake8 + FSD'] / cpu['flake8']:>7.2f}")
    if args.instructions:
        counts = {name: instructions(command, workdir, plugin, stdin) for name, (command, plugin) in commands.items()}
        added = counts["flake8 + FSD"] - counts["flake8"]
        print(f"instructions   flake8 {counts['flake8'] / 1e9:.3f} G, flake8 + FSD {counts['flake8 + FSD'] / 1e9:.3f} G, difference {added / 1e9:.3f} G")
    print(f"FSD findings: {len(fsd)}")
    for line in fsd:
        print(f"  {line[:160]}")
    return 0 if difference <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
