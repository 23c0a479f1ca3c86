"""The `fsdp-lint` command.

    fsdp-lint [check] PATH...     lint files and directories (exit 0 clean, 1 findings, 2 error)
    fsdp-lint --fix PATH...       rewrite what is safe to rewrite (`--diff` shows it instead)
    fsdp-lint - --stdin-filename PATH   lint stdin as the file PATH of its project (editors)
    fsdp-lint rule CODE           print a contract's documentation page
    fsdp-lint rules               list the catalogue
    fsdp-lint server              the language server, on stdin and stdout (the `server` extra)
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import sys
import time
from typing import TYPE_CHECKING, BinaryIO, Iterator, List, Optional, Sequence, TextIO

from fsdp_lint import __version__

if TYPE_CHECKING:
    from fsdp_lint.frontends.config import Config
    from fsdp_lint.engine.lint import LintOptions, LintResult
    from fsdp_lint.violation import Violation

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


CACHE_NAME = ".fsdp_lint_cache"

USAGE = """fsdp-lint [check] [OPTIONS] [PATH ...]
       fsdp-lint - --stdin-filename PATH [OPTIONS]
       fsdp-lint rule CODE
       fsdp-lint rules
       fsdp-lint server"""

DESCRIPTION = """Find PyTorch FSDP2 (fully_shard) contract violations.

commands:
  check [PATH ...]  lint files and directories (the default command; PATH defaults to .)
  rule CODE         print a rule's page: what it reports, why, an example, its options
  rules             list every rule
  server            run the language server on stdin and stdout (pip install "fsdp-lint[server]")"""

EPILOG = """exit codes:
  0  no findings (or --exit-zero)
  1  findings reported
  2  usage, configuration or internal error

configuration:
  [tool.fsdp-lint] in the nearest pyproject.toml above the linted paths, searched up to the
  repository root (--config PATH names a file, --isolated reads none); flags override it.
  --show-settings prints the settings a run uses and where each came from."""


class _Parser(argparse.ArgumentParser):
    """argparse that prints help, version and usage errors to the command's own streams."""

    def __init__(self, *args, out: TextIO, err: TextIO, **kwargs):
        super().__init__(*args, **kwargs)
        self.out, self.err = out, err

    def _print_message(self, message: str, file: Optional[TextIO] = None) -> None:
        if message:
            (self.err if file is sys.stderr else self.out).write(message)


def _codes(values: Optional[List[str]]) -> List[str]:
    return [c.strip().upper() for value in values or [] for c in value.split(",") if c.strip()]


def _check_parser(out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> argparse.ArgumentParser:
    from fsdp_lint.frontends.output import FORMATS

    parser = _Parser(
        out=out, err=err, prog="fsdp-lint", usage=USAGE, description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .); - reads stdin")
    parser.add_argument(
        "--stdin-filename", metavar="PATH",
        help="the path of the file read from stdin: it decides the configuration, per-file ignores and the project it is linted with",
    )
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
    chosen.add_argument("--show-settings", action="store_true", help="print the settings this run would use and where each came from; lint nothing")
    shown = parser.add_argument_group("output")
    shown.add_argument("--format", choices=sorted(FORMATS), default="text", help="output format (default: text)")
    shown.add_argument("--statistics", action="store_true", help="count findings per code instead of listing them (text, concise or json)")
    shown.add_argument("-q", "--quiet", action="store_true", help="print the findings only: no summary, nothing when clean")
    shown.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE instead of stdout")
    shown.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour the text formats (default: auto: a terminal, unless NO_COLOR)")
    shown.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings (errors still exit 2)")
    shown.add_argument("-v", "--verbose", action="store_true", help="also print the files linted and skipped, the cache's answer and timings (stderr)")
    speed = parser.add_argument_group("speed")
    speed.add_argument("--jobs", "-j", type=int, default=0, metavar="N", help="processes to use (default: 0, one per core)")
    speed.add_argument(
        "--cache-dir", metavar="DIR",
        help=f"where results are kept between runs (default: {CACHE_NAME} at the project root: beside the pyproject.toml that configures the run, else the repository root, else here)",
    )
    speed.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    fixing = parser.add_argument_group("fixes")
    fixing.add_argument("--fix", action="store_true", help="rewrite what can be fixed safely, then report what is left")
    fixing.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    fixing.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, apply the unsafe fixes too (they can change behaviour)")
    fixing.add_argument("--add-noqa", action="store_true", help="add `# noqa: CODE` to the line of every finding (to adopt the linter in a large code base)")
    parser.add_argument("-V", "--version", action="version", version=f"fsdp-lint {__version__}")
    return parser


def _options(args: argparse.Namespace, settings: Config, located: Sequence[str]) -> LintOptions:
    """The run's options: each command-line flag replaces or extends its config key, as in ruff."""
    from fsdp_lint.frontends import config

    return config.lint_options(
        settings,
        select=_codes(args.select), extend_select=_codes(args.extend_select), ignore=_codes(args.ignore),
        exclude=args.exclude or (), extend_exclude=args.extend_exclude, respect_gitignore=args.respect_gitignore,
        jobs=max(args.jobs, 0), cache_dir=None if args.no_cache else _cache_dir(args, settings, located),
    )


def _cache_dir(args: argparse.Namespace, settings: Config, located: Sequence[str]) -> str:
    """`--cache-dir`, else `.fsdp_lint_cache` at the project root (beside the pyproject.toml that
    configures the run, else at the repository root), else in the working directory: one cache per
    project wherever the command is run from, and where CI's cache step finds it."""
    from fsdp_lint.frontends import config

    if args.cache_dir:
        return args.cache_dir
    root = config.project_root(located, settings.path)
    return os.path.join(root, CACHE_NAME) if root else CACHE_NAME


class _Usage(Exception):
    """A usage error found after parsing: printed as `fsdp-lint: error: ...`, exit 2."""


def _validate(args: argparse.Namespace) -> None:
    from fsdp_lint.frontends.config import unknown_code

    for flag, values in (("--select", args.select), ("--extend-select", args.extend_select), ("--ignore", args.ignore)):
        for code in _codes(values):
            problem = unknown_code(code)
            if problem:
                raise _Usage(f"{flag}: {problem}")
    reading_stdin = args.paths == ["-"]
    if "-" in args.paths and not reading_stdin:
        raise _Usage("- (stdin) cannot be linted with other paths")
    if args.stdin_filename is not None and not args.paths:
        args.paths = ["-"]
    elif not args.paths:
        args.paths = ["."]
    reading_stdin = args.paths == ["-"]
    if args.stdin_filename is not None and not reading_stdin:
        raise _Usage("--stdin-filename names the file read from stdin: pass - as the path")
    if reading_stdin and (args.fix or args.diff or args.add_noqa):
        raise _Usage("--fix, --diff and --add-noqa change files on disk: they do not apply to stdin")
    if args.add_noqa and (args.fix or args.diff):
        raise _Usage("--add-noqa cannot be combined with --fix or --diff")
    if args.statistics and args.format not in ("text", "concise", "json"):
        raise _Usage(f"--statistics prints text or json, not {args.format}")


def _check(argv: Sequence[str], out: TextIO, err: TextIO, stdin: Optional[BinaryIO] = None) -> int:
    from fsdp_lint.frontends import config
    from fsdp_lint.engine.lint import lint_paths

    args = _check_parser(out, err).parse_args(argv)
    try:
        _validate(args)
    except _Usage as usage:
        err.write(f"fsdp-lint: error: {usage}\n")
        return EXIT_ERROR
    stdin_name = args.stdin_filename if args.paths == ["-"] else None
    located = [stdin_name] if stdin_name else ([] if args.paths == ["-"] else args.paths)
    try:
        settings = config.resolve(located, args.config, args.isolated)
    except config.ConfigError as error:
        err.write(f"fsdp-lint: error: {error}\n")
        return EXIT_ERROR
    options = _options(args, settings, located)
    if args.show_settings:
        from fsdp_lint.frontends.show_settings import show_settings

        out.write(show_settings(args, settings, options, located))
        return EXIT_CLEAN
    force_exclude = settings.force_exclude if args.force_exclude is None else args.force_exclude
    with _verbose(args.verbose, err):
        started = time.perf_counter()
        try:
            if args.paths == ["-"]:
                result = _lint_stdin(stdin_name, settings, options, force_exclude, stdin)
            else:
                paths = args.paths
                if force_exclude:
                    paths = [p for p in paths if not config.excluded(p, options.exclude)]
                    if not paths:
                        return EXIT_CLEAN
                if args.fix or args.diff:
                    return _fix(args, paths, options, out, err)
                result = lint_paths(paths, options)
        except FileNotFoundError as missing:
            err.write(f"fsdp-lint: error: {missing.args[0]}: no such file or directory\n")
            return EXIT_ERROR
        logging.getLogger("fsdp_lint").info("total: %.3fs", time.perf_counter() - started)
    if result.files == 0:
        err.write(f"fsdp-lint: warning: no Python files found under {' '.join(args.paths)}\n")
    if args.add_noqa:
        return _add_noqa(result, err)
    with _report_stream(args, out) as report:
        _render(args, result.violations, report)
    return _finish(result, err, args.exit_zero)


def _lint_stdin(name: Optional[str], settings: Config, options: LintOptions, force_exclude: bool, stdin: Optional[BinaryIO]) -> LintResult:
    """`fsdp-lint - --stdin-filename PATH`: the text on stdin, linted as the file PATH of its
    project (the directory of the configuring pyproject.toml, else the repository root), so that
    facts from the project's other modules reach it; only its findings are reported."""
    from fsdp_lint.frontends import config
    from fsdp_lint.engine.lint import LintResult, lint_paths

    data = (stdin or sys.stdin.buffer).read()
    name = name or "stdin"
    if force_exclude and config.excluded(name, options.exclude):
        return LintResult(files=1)
    root = config.project_root([name], settings.path) if name != "stdin" else None
    if root is None or not os.path.isdir(root):
        result = lint_paths([], options, {name: data})
    else:
        here = os.getcwd()
        inside = os.path.commonpath([here, root]) == here
        result = lint_paths([os.path.relpath(root) if inside else root], options, {name: data})
    location = os.path.abspath(name)
    result.violations = [_renamed(v, name) for v in result.violations if os.path.abspath(v.path) == location]
    return result


def _renamed(v: Violation, path: str) -> Violation:
    import dataclasses

    return v if v.path == path else dataclasses.replace(v, path=path)


@contextlib.contextmanager
def _verbose(enabled: bool, err: TextIO) -> Iterator[None]:
    """`-v`: the engine's log (files kept and skipped, the cache's answer, timings) on stderr."""
    if not enabled:
        yield
        return
    logger = logging.getLogger("fsdp_lint")
    handler = logging.StreamHandler(err)
    handler.setFormatter(logging.Formatter("fsdp-lint: %(message)s"))
    previous = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)


@contextlib.contextmanager
def _report_stream(args: argparse.Namespace, out: TextIO) -> Iterator[TextIO]:
    if not args.output_file:
        yield out
        return
    with open(args.output_file, "w", encoding="utf-8") as handle:
        yield handle


def _add_noqa(result: LintResult, err: TextIO) -> int:
    from fsdp_lint.frontends.add_noqa import add_noqa

    added = add_noqa(result.violations)
    for refusal in added.refused:
        err.write(f"fsdp-lint: {refusal}\n")
    noun = "directive" if added.directives == 1 else "directives"
    err.write(f"Added {added.directives} noqa {noun} in {added.files} file{'' if added.files == 1 else 's'}.\n")
    if result.internal_errors:
        return _finish(result, err)
    return EXIT_FINDINGS if added.refused else EXIT_CLEAN  # findings left without a directive


def _render(args: argparse.Namespace, violations: Sequence[Violation], out: TextIO) -> None:
    from fsdp_lint.frontends.output import HUMAN_FORMATS, renderer, text

    if args.statistics and args.format == "json":
        import json

        json.dump(text.statistics(violations, args.unsafe_fixes), out, indent=2)
        out.write("\n")
    elif args.statistics:
        text.render_statistics(violations, out, args.unsafe_fixes)
    elif args.format in HUMAN_FORMATS:
        renderer(args.format)(violations, out, args.color, args.unsafe_fixes)
    else:
        renderer(args.format)(violations, out)
    if args.format in HUMAN_FORMATS and not args.quiet:
        out.write(text.summary(violations, None if args.statistics else args.unsafe_fixes) + "\n")


def _finish(result: LintResult, err: TextIO, exit_zero: bool = False) -> int:
    for failure in result.internal_errors:
        err.write(failure.describe() + "\n")
    if result.internal_errors:
        return EXIT_ERROR
    from fsdp_lint.tool_codes import INFORMATIONAL

    failing = any(v.code not in INFORMATIONAL for v in result.violations)  # FSD002 alone exits 0
    return EXIT_FINDINGS if failing and not exit_zero else EXIT_CLEAN


def _fix(args: argparse.Namespace, paths: Sequence[str], options: LintOptions, out: TextIO, err: TextIO) -> int:
    """`--diff` prints what `--fix` would write; `--fix` writes it and reports what is left."""
    from fsdp_lint.engine import fixes
    from fsdp_lint.frontends.output import text

    run = fixes.plan(paths, options, args.unsafe_fixes)
    for refusal in run.refused:
        err.write(f"fsdp-lint: {refusal}\n")
    if args.diff:
        for fix in run.fixes:
            out.write(fix.diff())
        err.write(f"Would fix {text.counted(run.fixed)}{text.hidden_fixes(run.hidden, args.unsafe_fixes)}.\n")
        return EXIT_FINDINGS if run.fixes else EXIT_CLEAN
    for fix in run.fixes:
        fixes.write(fix)
    _render(args, run.remaining.violations, out)
    if run.fixed and not args.quiet:
        err.write(f"Fixed {text.counted(run.fixed)}{text.hidden_fixes(run.hidden, args.unsafe_fixes)}.\n")
    return _finish(run.remaining, err, args.exit_zero)


def _rule(argv: Sequence[str], out: TextIO, err: TextIO, stdin: Optional[BinaryIO] = None) -> int:
    from fsdp_lint.catalogue import lookup
    from fsdp_lint.frontends.docs import rule_page

    parser = _Parser(
        out=out, err=err, prog="fsdp-lint rule", description="Print a rule's page: what it reports, why it is a bug, an example, what to write instead, its options and its runtime twin.",
    )
    parser.add_argument("code", metavar="CODE", help="a code (FSD202) or a rule name (optimizer-before-shard)")
    args = parser.parse_args(argv)
    entry = lookup(args.code)
    if entry is None:
        err.write(f"fsdp-lint: error: no contract {args.code!r}; `fsdp-lint rules` lists them\n")
        return EXIT_ERROR
    out.write(rule_page(entry))
    return EXIT_CLEAN


def _rules(argv: Sequence[str], out: TextIO, err: TextIO, stdin: Optional[BinaryIO] = None) -> int:
    from fsdp_lint.frontends.docs import rules_list

    _Parser(out=out, err=err, prog="fsdp-lint rules", description="List every rule: code, name, how it is checked, summary.").parse_args(argv)
    out.write(rules_list())
    return EXIT_CLEAN


def _server(argv: Sequence[str], out: TextIO, err: TextIO, stdin: Optional[BinaryIO] = None) -> int:
    from fsdp_lint.frontends.server import INSTALL, missing_requirement

    _Parser(
        out=out, err=err, prog="fsdp-lint server",
        description="Run the language server (LSP) on stdin and stdout: an editor starts it and shows the findings of each open file's whole project as you type.",
    ).parse_args(argv)
    missing = missing_requirement()
    if missing is not None:
        err.write(f"fsdp-lint: error: the language server needs the `server` extra ({missing}): {INSTALL}\n")
        return EXIT_ERROR
    from fsdp_lint.frontends.server.wiring import serve

    serve()
    return EXIT_CLEAN


COMMANDS = {"check": _check, "rule": _rule, "rules": _rules, "server": _server}


def main(
    argv: Optional[Sequence[str]] = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr, stdin: Optional[BinaryIO] = None
) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = COMMANDS.get(argv[0]) if argv else None
    try:
        if command is not None:
            return command(argv[1:], out, err, stdin)
        return _check(argv, out, err, stdin)
    except SystemExit as exit_:  # argparse: --help exits 0, a usage error exits 2
        return int(exit_.code or 0)
    except KeyboardInterrupt:
        err.write("fsdp-lint: interrupted\n")
        return EXIT_ERROR
    except BrokenPipeError:
        return _closed_pipe(out, err)
    except Exception as error:  # the last line of defence: a message, never a traceback
        from fsdp_lint.engine.tree_analysis import BUG_TRACKER

        err.write(f"fsdp-lint: internal error: {type(error).__name__}: {error}\nPlease report it at {BUG_TRACKER}.\n")
        return EXIT_ERROR


def _closed_pipe(out: TextIO, err: TextIO) -> int:
    """The reader of the output went away (`fsdp-lint ... | head -1`): stop quietly, as ruff and
    flake8 do. What is still buffered for the closed pipe is dropped, so that the interpreter's
    flush at exit does not fail again and print Python's own `BrokenPipeError` message."""
    for stream in (out, err):
        try:
            descriptor = stream.fileno()
        except (AttributeError, OSError, ValueError):
            continue  # an in-memory stream: nothing to redirect
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, descriptor)
        os.close(devnull)
    return EXIT_CLEAN


def run() -> None:
    """The `fsdp-lint` command. A run's syntax trees are cyclic garbage once it is over, and the
    cyclic collector is off while it lints (`fsdp_lint.engine.lint`): turned back on, its first
    pass walks every object the run made, and the interpreter's teardown frees them one by one,
    a tenth of a cold run's time on verl, for memory the process hands back as it exits. So the
    command keeps the collector off and leaves without that teardown, as mypy does
    (`os._exit` once the output is flushed). The language server, a long-lived process, exits
    as usual; `main` called in a process that goes on (tests, embedding) changes nothing."""
    argv = sys.argv[1:]
    if argv[:1] == ["server"]:
        sys.exit(main())
    gc.disable()
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        code = _closed_pipe(sys.stdout, sys.stderr)
    os._exit(code)


if __name__ == "__main__":
    run()
