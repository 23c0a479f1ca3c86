"""The `fsdp-lint` command.

    fsdp-lint [check] PATH...     lint files and directories (exit 0 clean, 1 findings, 2 error)
    fsdp-lint --fix PATH...       rewrite what is safe to rewrite (`--diff` shows it instead)
    fsdp-lint rule CODE           print a contract's documentation page
    fsdp-lint rules               list the catalogue
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, List, Optional, Sequence, TextIO

from fsdp_lint import __version__

if TYPE_CHECKING:
    from fsdp_lint.frontends.config import Config
    from fsdp_lint.engine.lint import LintOptions, LintResult
    from fsdp_lint.violation import Violation

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(values: Optional[List[str]]) -> List[str]:
    return [c.strip().upper() for value in values or [] for c in value.split(",") if c.strip()]


def _check_parser() -> argparse.ArgumentParser:
    from fsdp_lint.frontends.output import FORMATS

    parser = argparse.ArgumentParser(prog="fsdp-lint", description="Find PyTorch FSDP2 contract violations.")
    parser.add_argument("paths", nargs="*", default=["."], help="files or directories (default: .)")
    chosen = parser.add_argument_group("selection (flags override [tool.fsdp-lint] in pyproject.toml)")
    chosen.add_argument(
        "--select", action="append", metavar="CODES", help="codes or prefixes to report, replacing the config's (FSD2,FSD301)"
    )
    chosen.add_argument("--extend-select", action="append", metavar="CODES", help="codes or prefixes to report in addition")
    chosen.add_argument("--ignore", action="append", metavar="CODES", help="codes or prefixes to skip")
    chosen.add_argument("--exclude", action="append", metavar="GLOB", help="skip matching files and directories, replacing the config's")
    chosen.add_argument("--extend-exclude", action="append", default=[], metavar="GLOB", help="skip these too")
    chosen.add_argument(
        "--no-respect-gitignore", dest="respect_gitignore", action="store_false", default=None, help="lint .gitignored files too"
    )
    chosen.add_argument(
        "--force-exclude", action="store_true", default=None, help="apply excludes to files named on the command line (pre-commit)"
    )
    chosen.add_argument("--config", metavar="PATH", help="read settings from this pyproject.toml instead of searching for one")
    chosen.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    shown = parser.add_argument_group("output")
    shown.add_argument("--format", choices=sorted(FORMATS), default="text", help="output format (default: text)")
    shown.add_argument("--statistics", action="store_true", help="count findings per code instead of listing them")
    shown.add_argument("-q", "--quiet", action="store_true", help="print the findings only: no summary, nothing when clean")
    speed = parser.add_argument_group("speed")
    speed.add_argument("--jobs", "-j", type=int, default=0, metavar="N", help="processes to use (default: 0, one per core)")
    speed.add_argument("--cache-dir", default=".fsdp_lint_cache", metavar="DIR", help="where results are kept between runs (default: .fsdp_lint_cache)")
    speed.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    fixing = parser.add_argument_group("fixes")
    fixing.add_argument("--fix", action="store_true", help="rewrite what can be fixed safely, then report what is left")
    fixing.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    parser.add_argument("--version", action="version", version=f"fsdp-lint {__version__}")
    return parser


def _load_config(args: argparse.Namespace) -> Config:
    from fsdp_lint.frontends import config

    if args.isolated:
        return config.Config()
    path = args.config or config.find(args.paths)
    return config.load(path) if path else config.Config()


def _options(args: argparse.Namespace, settings: Config) -> LintOptions:
    """The run's options: each command-line flag replaces or extends its config key, as in ruff."""
    from fsdp_lint.engine.lint import LintOptions
    from fsdp_lint.selection import Selection

    if args.select:
        select = tuple(_codes(args.select))
    else:
        select = (settings.select or ("FSD",)) + settings.extend_select
    selection = Selection(
        select + tuple(_codes(args.extend_select)), settings.ignore + tuple(_codes(args.ignore)), settings.per_file_ignores
    )
    exclude = tuple(args.exclude) if args.exclude else settings.exclude
    return LintOptions(
        selection=selection,
        exclude=exclude + settings.extend_exclude + tuple(args.extend_exclude),
        respect_gitignore=settings.respect_gitignore if args.respect_gitignore is None else args.respect_gitignore,
        rule_settings=settings.rule_settings,
        apis=settings.apis,
        jobs=max(args.jobs, 0),
        cache_dir=None if args.no_cache else args.cache_dir,
    )


def _check(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    from fsdp_lint.frontends.config import CODE, ConfigError, excluded
    from fsdp_lint.engine.lint import lint_paths

    args = _check_parser().parse_args(argv)
    unknown = [c for c in _codes(args.select) + _codes(args.extend_select) + _codes(args.ignore) if not CODE.match(c)]
    if unknown:
        err.write(f"fsdp-lint: error: unknown code or prefix {unknown[0]!r} (codes look like FSD201 or FSD2)\n")
        return EXIT_ERROR
    try:
        settings = _load_config(args)
    except ConfigError as error:
        err.write(f"fsdp-lint: error: {error}\n")
        return EXIT_ERROR
    options = _options(args, settings)
    paths = args.paths
    if settings.force_exclude if args.force_exclude is None else args.force_exclude:
        paths = [p for p in paths if not excluded(p, options.exclude)]
        if not paths:
            return EXIT_CLEAN
    try:
        if args.fix or args.diff:
            return _fix(args, paths, options, out, err)
        result = lint_paths(paths, options)
    except FileNotFoundError as missing:
        err.write(f"fsdp-lint: error: {missing.args[0]}: no such file or directory\n")
        return EXIT_ERROR
    _render(args, result.violations, out)
    return _finish(result, err)


def _render(args: argparse.Namespace, violations: Sequence[Violation], out: TextIO) -> None:
    from fsdp_lint.frontends.output import FORMATS, HUMAN_FORMATS, text

    if args.statistics:
        text.render_statistics(violations, out)
    else:
        FORMATS[args.format](violations, out)
    if (args.statistics or args.format in HUMAN_FORMATS) and not args.quiet:
        out.write(text.summary(violations) + "\n")


def _finish(result: LintResult, err: TextIO) -> int:
    for failure in result.internal_errors:
        err.write(failure.describe() + "\n")
    if result.internal_errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if result.violations else EXIT_CLEAN


def _fix(args: argparse.Namespace, paths: Sequence[str], options: LintOptions, out: TextIO, err: TextIO) -> int:
    """`--diff` prints what `--fix` would write; `--fix` writes it and reports what is left."""
    from fsdp_lint.engine import fixes
    from fsdp_lint.frontends.output import text

    run = fixes.plan(paths, options)
    for refusal in run.refused:
        err.write(f"fsdp-lint: {refusal}\n")
    if args.diff:
        for fix in run.fixes:
            out.write(fix.diff())
        err.write(f"Would fix {text.counted(run.fixed)}.\n")
        return EXIT_FINDINGS if run.fixes else EXIT_CLEAN
    for fix in run.fixes:
        fixes.write(fix)
    _render(args, run.remaining.violations, out)
    if run.fixed and not args.quiet:
        err.write(f"Fixed {text.counted(run.fixed)}.\n")
    return _finish(run.remaining, err)


def _rule(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    from fsdp_lint.catalogue import lookup
    from fsdp_lint.frontends.docs import rule_page

    if len(argv) != 1:
        err.write("usage: fsdp-lint rule CODE\n")
        return EXIT_ERROR
    entry = lookup(argv[0])
    if entry is None:
        err.write(f"fsdp-lint: error: no contract {argv[0]!r}; `fsdp-lint rules` lists them\n")
        return EXIT_ERROR
    out.write(rule_page(entry))
    return EXIT_CLEAN


def _rules(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    from fsdp_lint.frontends.docs import rules_list

    out.write(rules_list())
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
        from fsdp_lint.engine.lint import BUG_TRACKER

        err.write(f"fsdp-lint: internal error: {type(error).__name__}: {error}\nPlease report it at {BUG_TRACKER}.\n")
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
