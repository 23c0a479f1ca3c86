"""The `fsdp-lint` command.

    fsdp-lint [check] PATH...     lint files and directories (exit 0 clean, 1 findings, 2 error)
    fsdp-lint rule CODE           print a contract's documentation page
    fsdp-lint rules               list the catalogue
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional, Sequence, TextIO

from fsdp_lint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(values: Optional[List[str]]) -> List[str]:
    return [c.strip().upper() for value in values or [] for c in value.split(",") if c.strip()]


def _check_parser() -> argparse.ArgumentParser:
    from fsdp_lint.output import FORMATS

    parser = argparse.ArgumentParser(prog="fsdp-lint", description="Find PyTorch FSDP2 contract violations.")
    parser.add_argument("paths", nargs="*", default=["."], help="files or directories (default: .)")
    parser.add_argument("--select", action="append", metavar="CODES", help="codes or prefixes to report (FSD2,FSD301)")
    parser.add_argument("--ignore", action="append", metavar="CODES", help="codes or prefixes to skip")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip matching files and directories")
    parser.add_argument("--no-respect-gitignore", dest="respect_gitignore", action="store_false", help="lint .gitignored files too")
    parser.add_argument("--format", choices=sorted(FORMATS), default="text", help="output format (default: text)")
    parser.add_argument("--version", action="version", version=f"fsdp-lint {__version__}")
    return parser


def _check(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    from fsdp_lint.engine import LintOptions, lint_paths
    from fsdp_lint.output import FORMATS
    from fsdp_lint.selection import Selection

    args = _check_parser().parse_args(argv)
    unknown = [c for c in _codes(args.select) + _codes(args.ignore) if not c.startswith("FSD")]
    if unknown:
        err.write(f"fsdp-lint: error: unknown code or prefix {unknown[0]!r} (codes look like FSD201 or FSD2)\n")
        return EXIT_ERROR
    selection = Selection(tuple(_codes(args.select)) or ("FSD",), tuple(_codes(args.ignore)))
    options = LintOptions(selection=selection, exclude=tuple(args.exclude), respect_gitignore=args.respect_gitignore)
    try:
        result = lint_paths(args.paths, options)
    except FileNotFoundError as missing:
        err.write(f"fsdp-lint: error: {missing.args[0]}: no such file or directory\n")
        return EXIT_ERROR
    FORMATS[args.format](result.violations, out)
    for failure in result.internal_errors:
        err.write(failure.describe() + "\n")
    if result.internal_errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if result.violations else EXIT_CLEAN


def _rule(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    from fsdp_lint.catalogue import lookup

    if len(argv) != 1:
        err.write("usage: fsdp-lint rule CODE\n")
        return EXIT_ERROR
    entry = lookup(argv[0])
    if entry is None:
        err.write(f"fsdp-lint: error: no contract {argv[0]!r}; `fsdp-lint rules` lists them\n")
        return EXIT_ERROR
    out.write(f"# {entry.name} ({entry.code})\n\n")
    out.write(f"Severity: {entry.severity}. Enforced by: {entry.enforced_by}.\n\n")
    out.write(entry.doc.strip() + "\n")
    if entry.static and entry.runtime:
        out.write("\n## Runtime twin\n" + entry.runtime.doc.strip() + "\n")
    return EXIT_CLEAN


def _rules(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    from fsdp_lint.catalogue import catalogue

    for entry in catalogue().values():
        out.write(f"{entry.code}  {entry.name:<32} {entry.enforced_by:<15} {entry.summary}\n")
    return EXIT_CLEAN


COMMANDS = {"check": _check, "rule": _rule, "rules": _rules}


def main(argv: Optional[Sequence[str]] = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = COMMANDS.get(argv[0]) if argv else None
    try:
        if command is not None:
            return command(argv[1:], out, err)
        return _check(argv, out, err)
    except SystemExit as exit_:  # argparse: --help exits 0, a usage error exits 2
        return int(exit_.code or 0)
    except KeyboardInterrupt:
        err.write("fsdp-lint: interrupted\n")
        return EXIT_ERROR
    except Exception as error:  # the last line of defence: a message, never a traceback
        from fsdp_lint.engine import BUG_TRACKER

        err.write(f"fsdp-lint: internal error: {type(error).__name__}: {error}\nPlease report it at {BUG_TRACKER}.\n")
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
