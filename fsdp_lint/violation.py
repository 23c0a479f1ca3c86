"""The one record that passes between the stages of a run: rules produce it, outputs render it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True, order=True)
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


SAFE, UNSAFE = "safe", "unsafe"


@dataclass(frozen=True, order=True)
class Fix:
    """The edits that resolve a finding, and whether applying them keeps what the code means
    (ruff's fix applicability): `--fix` applies the safe ones; the unsafe ones, which can change
    behaviour in a case the rule cannot rule out, only with `--unsafe-fixes`."""

    edits: Tuple[Edit, ...]
    applicability: str = SAFE

    @classmethod
    def safe(cls, *edits: Edit) -> "Fix":
        return cls(edits, SAFE)

    @classmethod
    def unsafe(cls, *edits: Edit) -> "Fix":
        return cls(edits, UNSAFE)

    def applies(self, unsafe_fixes: bool) -> bool:
        """Whether a run applies it: a safe fix always, an unsafe one with `--unsafe-fixes`."""
        return self.applicability == SAFE or unsafe_fixes


@dataclass(frozen=True, order=True)
class Note:
    """A place that explains a finding: where the object was sharded, each call that passed it on."""

    path: str
    line: int
    column: int
    message: str


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
    fix: Optional[Fix] = None
    related: Tuple[Note, ...] = ()
