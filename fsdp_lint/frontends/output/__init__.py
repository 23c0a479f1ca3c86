"""Renderers of Violations: each format only renders, nothing here decides what is reported.

A renderer takes the run's violations and writes them to a stream; `FORMATS` maps the names that
`--format` accepts to renderers.
"""

from __future__ import annotations

from typing import Callable, Dict, Sequence, TextIO

from fsdp_lint.frontends.output import github, json_format, sarif, text
from fsdp_lint.violation import Violation

Renderer = Callable[[Sequence[Violation], TextIO], None]

FORMATS: Dict[str, Renderer] = {
    "text": text.render,
    "concise": text.render_concise,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
}
# The formats a person reads, which end with the `Found N findings` summary.
HUMAN_FORMATS = frozenset({"text", "concise"})
