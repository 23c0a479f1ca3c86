"""``python -m fsdp_lint.runtime [--mode warn] [--ignore CODES] train.py ARGS``: run a script guarded.

Also ``-m package.module ARGS``, and under ``torchrun ... -m fsdp_lint.runtime train.py``. The
script runs as ``__main__`` with its own ``sys.argv`` and its directory first on ``sys.path``,
exactly as ``python train.py ARGS`` would run it. $FSDP_LINT_RUNTIME and
$FSDP_LINT_RUNTIME_IGNORE configure the guard when the flags are not given.
"""

import os
import runpy
import sys
from typing import Dict, List, NoReturn, Optional, Tuple

import fsdp_lint.runtime
from fsdp_lint.runtime.config import check_codes, make_config

PROG = "python -m fsdp_lint.runtime"
USAGE = f"usage: {PROG} [--mode raise|warn] [--ignore CODES] [--verbose] (script.py | -m module) [ARGS...]"
HELP = f"""{USAGE}

Run a training script with fsdp-lint's runtime guard enabled, unchanged: it runs as __main__
with its own arguments, also under `torchrun ... -m fsdp_lint.runtime script.py ARGS`.

options (before the script; everything after it belongs to the script):
  --mode raise|warn  raise: stop every rank at the first violation (default; $FSDP_LINT_RUNTIME)
                     warn: print a warning and let training go on
  --ignore CODES     comma-separated codes or prefixes not to check, e.g. FSD101,FSD3
                     (added to $FSDP_LINT_RUNTIME_IGNORE)
  --verbose          print full Python tracebacks, not just each finding and the user's line
                     ($FSDP_LINT_RUNTIME_VERBOSE=1)
  -h, --help         show this help and exit

environment: $FSDP_LINT_RUNTIME_TIMEOUT (seconds, default 30) bounds how long a rank waits for
the others at the first forward. `fsdp-lint rule CODE` explains a code.
"""


def _fail(message: str) -> NoReturn:
    """argparse's convention: usage and one line on stderr, exit status 2."""
    sys.stderr.write(f"{USAGE}\n{PROG}: error: {message}\n")
    sys.exit(2)


def _parse(argv: List[str]) -> Tuple[Dict[str, str], Optional[str], Optional[str], List[str]]:
    """Guard options, then the script (or ``-m module``); everything after belongs to the script.

    Hand-rolled rather than argparse so that the script's own options (even ``--mode``) are
    never taken for the guard's.
    """
    options: Dict[str, str] = {}
    index = 0
    while index < len(argv) and argv[index].startswith("-") and argv[index] != "-m":
        name, has_value, value = argv[index].lstrip("-").partition("=")
        if name in ("h", "help"):
            sys.stdout.write(HELP)
            sys.exit(0)
        if name == "verbose":
            options["verbose"] = "1"
            index += 1
            continue
        if name not in ("mode", "ignore"):
            _fail(f"unrecognized option {argv[index]!r}")
        if not has_value:
            index += 1
            if index == len(argv):
                _fail(f"--{name} needs a value")
            value = argv[index]
        options[name] = value
        index += 1
    rest = argv[index:]
    if rest[:1] == ["-m"]:
        if len(rest) < 2:
            _fail("-m needs a module name")
        return options, None, rest[1], rest[2:]
    if not rest:
        _fail("no script given")
    return options, rest[0], None, rest[1:]


def main(argv: Optional[List[str]] = None) -> None:
    options, script, module, args = _parse(sys.argv[1:] if argv is None else argv)
    ignore = [code for code in options.get("ignore", "").split(",") if code.strip()]
    try:
        check_codes(make_config(options.get("mode"), ignore).ignore)  # usage errors before torch is imported
        fsdp_lint.runtime.enable(mode=options.get("mode"), ignore=ignore, verbose=True if "verbose" in options else None)
    except (ValueError, ImportError) as exc:
        _fail(str(exc))
    if script is not None and not os.path.isfile(script):
        fsdp_lint.runtime.disable()
        _fail(f"can't open file {script!r}: no such file")
    if module is not None:
        sys.argv = [module] + args
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return
    sys.argv = [script] + args
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
