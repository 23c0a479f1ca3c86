"""`--format text`: what a person reads in a terminal or a CI log.

Each finding starts with `path:line:col: CODE message` (the form editors and CI parsers already
match), then the offending line with a caret under the span and a `help:` line. Colour follows
the terminal, `NO_COLOR` and `FORCE_COLOR` (https://no-color.org, https://force-color.org), unless
`--color always|never` decides.
The `Found 3 findings (...)` summary is the command's to print (`--quiet` drops it).

Fixable findings are marked as ruff marks them: `CODE [*] message` where this run's `--fix` would
apply the fix (a safe fix; an unsafe one too with `--unsafe-fixes`), and the summary counts them
and the unsafe fixes left out. Going one step further than ruff, `CODE [-] message` marks a
finding whose fix is unsafe and left out.
"""

from __future__ import annotations

import linecache
import os
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence, TextIO

from fsdp_lint.violation import Violation


class _Palette:
    def __init__(self, enabled: bool):
        if enabled:
            import colorama

            colorama.just_fix_windows_console()
            style, fore = colorama.Style, colorama.Fore
            self.bold, self.reset = style.BRIGHT, style.RESET_ALL
            self.path, self.error, self.warning, self.help, self.dim = fore.CYAN, fore.RED, fore.YELLOW, fore.GREEN, style.DIM
        else:
            self.bold = self.reset = self.path = self.error = self.warning = self.help = self.dim = ""


def use_colour(stream: TextIO, choice: str = "auto") -> bool:
    """`--color`: `always` and `never` decide; `auto` follows NO_COLOR, FORCE_COLOR, then the terminal."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _header(v: Violation, p: _Palette, unsafe_fixes: bool) -> str:
    colour = p.warning if v.severity == "warning" else p.error
    marker = "" if v.fix is None else "[*] " if v.fix.applies(unsafe_fixes) else "[-] "
    return f"{p.bold}{p.path}{v.path}{p.reset}:{v.line}:{v.column}: {p.bold}{colour}{v.code}{p.reset} {marker}{v.message}"


def _source_lines(v: Violation, p: _Palette) -> str:
    line = linecache.getline(v.path, v.line).rstrip("\r\n")
    if not line.strip():
        return ""
    gutter = " " * len(str(v.line))
    expanded = line.expandtabs(4)
    start = len(line[: v.column - 1].expandtabs(4))
    end = len(line[: v.end_column - 1].expandtabs(4)) if v.end_line == v.line and v.end_column else len(expanded.rstrip())
    carets = "^" * max(1, end - start)
    colour = p.warning if v.severity == "warning" else p.error
    return (
        f"{p.dim}{gutter} |{p.reset}\n"
        f"{p.dim}{v.line} |{p.reset} {expanded}\n"
        f"{p.dim}{gutter} |{p.reset} {' ' * start}{colour}{carets}{p.reset}\n"
    )


def counted(violations: Sequence[Violation]) -> str:
    """`3 findings (2 FSD202, 1 FSD301)`."""
    counts = Counter(v.code for v in violations)
    noun = "finding" if len(violations) == 1 else "findings"
    detail = ", ".join(f"{n} {code}" for code, n in sorted(counts.items()))
    return f"{len(violations)} {noun} ({detail})" if violations else "0 findings"


def summary(violations: Sequence[Violation], unsafe_fixes: Optional[bool] = False) -> str:
    """`Found 3 findings (...)`, then, as ruff, what `--fix` can do about them:
    `[*] 2 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).`
    `unsafe_fixes` None leaves the fixes out (`--statistics` marks them in its table)."""
    if not violations or unsafe_fixes is None:
        return f"Found {counted(violations)}." if violations else "All checks passed."
    fixable = sum(1 for v in violations if v.fix is not None and v.fix.applies(unsafe_fixes))
    hidden = hidden_fixes(violations, unsafe_fixes)
    if fixable:
        option = "`--fix --unsafe-fixes`" if unsafe_fixes else "`--fix`"
        return f"Found {counted(violations)}.\n[*] {fixable} fixable with the {option} option{hidden}."
    return f"Found {counted(violations)}." + (f"\nNo fixes available{hidden}." if hidden else "")


def hidden_fixes(violations: Sequence[Violation], unsafe_fixes: bool) -> str:
    """` (2 hidden fixes can be enabled with the `--unsafe-fixes` option)`, or nothing."""
    hidden = sum(1 for v in violations if v.fix is not None and not v.fix.applies(unsafe_fixes))
    if not hidden:
        return ""
    return f" ({hidden} hidden fix{'es' if hidden > 1 else ''} can be enabled with the `--unsafe-fixes` option)"


def render(violations: Sequence[Violation], stream: TextIO, colour: str = "auto", unsafe_fixes: bool = False) -> None:
    p = _Palette(use_colour(stream, colour))
    for v in violations:
        stream.write(_header(v, p, unsafe_fixes) + "\n")
        stream.write(_source_lines(v, p))
        if v.help:
            stream.write(f"  {p.help}help:{p.reset} {v.help}\n")
        stream.write("\n")


def render_concise(violations: Sequence[Violation], stream: TextIO, colour: str = "auto", unsafe_fixes: bool = False) -> None:
    p = _Palette(use_colour(stream, colour))
    for v in violations:
        stream.write(_header(v, p, unsafe_fixes) + "\n")


def statistics(violations: Sequence[Violation], unsafe_fixes: bool = False) -> List[Dict[str, Any]]:
    """`--statistics`: a record per code, most frequent first (`--format json` prints these);
    `fixable` where this run's `--fix` would apply a fix for the code (ruff's meaning)."""
    counts = Counter(v.code for v in violations)
    names = {v.code: v.name for v in violations}
    fixable = {v.code for v in violations if v.fix is not None and v.fix.applies(unsafe_fixes)}
    return [
        {"code": code, "name": names[code], "count": n, "fixable": code in fixable}
        for code, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]


def render_statistics(violations: Sequence[Violation], stream: TextIO, unsafe_fixes: bool = False) -> None:
    """`--statistics`: one line per code, most frequent first; `[*]` marks codes `--fix` can fix."""
    records = statistics(violations, unsafe_fixes)
    width = len(str(max((r["count"] for r in records), default=0)))
    for r in records:
        marker = "[*]" if r["fixable"] else "   "
        stream.write(f"{r['count']:>{width}}  {r['code']}  {marker} {r['name']}\n")
