"""`--format github`: GitHub Actions workflow commands, which GitHub turns into annotations on the
pull request's diff without any upload step.

    ::error file=train.py,line=41,col=12,endLine=41,endColumn=32,title=FSD201::train.py:41:12: FSD201 ...

Warning-severity codes become `::warning`. Escaping follows actions/toolkit's `command.ts`: data
escapes `%`, CR and LF; property values also escape `:` and `,`. GitHub shows at most ten
annotations of each kind per step, so each message also carries the `path:line:col` that the log
needs on its own.
"""

from __future__ import annotations

from typing import Sequence, TextIO

from fsdp_lint.frontends.output.paths import portable
from fsdp_lint.violation import Violation


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(v: Violation) -> str:
    path = portable(v.path)
    properties = [("file", path), ("line", str(v.line)), ("col", str(v.column))]
    if v.end_line is not None:
        properties.append(("endLine", str(v.end_line)))
        if v.end_line == v.line and v.end_column is not None:
            properties.append(("endColumn", str(v.end_column)))
    properties.append(("title", v.code))
    message = f"{path}:{v.line}:{v.column}: {v.code} {v.message}"
    if v.help:
        message += f"\nhelp: {v.help}"
    command = "warning" if v.severity == "warning" else "error"
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{command} {rendered}::{escape_data(message)}"


def render(violations: Sequence[Violation], stream: TextIO) -> None:
    for v in violations:
        stream.write(annotation(v) + "\n")
