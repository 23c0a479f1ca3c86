"""``python -m fsdp_lint.runtime [--mode warn] [--ignore CODES] train.py ARGS``: run a script guarded.

Also ``-m package.module ARGS``, and under ``torchrun ... -m fsdp_lint.runtime train.py``. The
script runs as ``__main__`` with its own ``sys.argv`` and its directory first on ``sys.path``,
exactly as ``python train.py ARGS`` would run it. $FSDP_LINT_RUNTIME and
$FSDP_LINT_RUNTIME_IGNORE configure the guard when the flags are not given.
"""

import os
import runpy
import sys
from typing import Dict, List, Optional, Tuple

import fsdp_lint.runtime


USAGE = "usage: python -m fsdp_lint.runtime [--mode raise|warn] [--ignore CODES] (script.py | -m module) [ARGS...]"


def _parse(argv: List[str]) -> Tuple[Dict[str, str], Optional[str], Optional[str], List[str]]:
    """Guard options, then the script (or ``-m module``); everything after belongs to the script.

    Hand-rolled rather than argparse so that the script's own options (even ``--mode``) are
    never taken for the guard's.
    """
    options: Dict[str, str] = {}
    index = 0
    while index < len(argv) and argv[index].startswith("--"):
        name, _, value = argv[index][2:].partition("=")
        if name in ("help",):
            print(USAGE)
            sys.exit(0)
        if name not in ("mode", "ignore"):
            sys.exit(f"{USAGE}\nunknown option --{name}")
        if not value:
            index += 1
            if index == len(argv):
                sys.exit(f"{USAGE}\n--{name} needs a value")
            value = argv[index]
        options[name] = value
        index += 1
    rest = argv[index:]
    if rest[:1] == ["-m"] and len(rest) >= 2:
        return options, None, rest[1], rest[2:]
    if not rest or rest[0].startswith("-"):
        sys.exit(USAGE)
    return options, rest[0], None, rest[1:]


def main(argv: Optional[List[str]] = None) -> None:
    options, script, module, args = _parse(sys.argv[1:] if argv is None else argv)
    ignore = [code for code in options.get("ignore", "").split(",") if code.strip()]
    fsdp_lint.runtime.enable(mode=options.get("mode"), ignore=ignore)
    if module is not None:
        sys.argv = [module] + args
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return
    sys.argv = [script] + args
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
