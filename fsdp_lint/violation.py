"""The one record that passes between the stages of a run: rules produce it, outputs render it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Edit:
    """Replace the text between two positions with `text`.

    In a `Violation`, lines and columns are 1-based and columns count characters. A rule builds it
    from astroid positions (1-based lines, 0-based UTF-8 byte columns) and the engine converts.
    """

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True, order=True)
class Violation:
    path: str
    line: int
    column: int
    code: str
    name: str
    message: str
    severity: str = "error"
    end_line: Optional[int] = None
    end_column: Optional[int] = None
    help: Optional[str] = None
    fix: Optional[Edit] = None
