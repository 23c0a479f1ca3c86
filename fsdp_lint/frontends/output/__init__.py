"""Renderers of Violations: each format only renders, nothing here decides what is reported.

A renderer takes the run's violations and writes them to a stream; `FORMATS` names, for each name
that `--format` accepts, the module and function that render it. A run imports the renderer it
prints with (`renderer`) and no other: SARIF's brings the rule catalogue, JSON's the json module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Callable, Dict, Sequence, TextIO, Tuple

if TYPE_CHECKING:
    from fsdp_lint.violation import Violation

Renderer = Callable[["Sequence[Violation]", TextIO], None]

FORMATS: Dict[str, Tuple[str, str]] = {
    "text": ("text", "render"),
    "concise": ("text", "render_concise"),
    "json": ("json_format", "render"),
    "sarif": ("sarif", "render"),
    "github": ("github", "render"),
}
# The formats a person reads, which end with the `Found N findings` summary.
HUMAN_FORMATS = frozenset({"text", "concise"})


def renderer(name: str) -> Renderer:
    """The function that renders the `--format` `name`."""
    module, function = FORMATS[name]
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)
