"""`--format json`: one JSON array, an object per finding, for scripts and dashboards."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Dict, Sequence, TextIO

from fsdp_lint.violation import Violation


def as_dict(violation: Violation) -> Dict[str, Any]:
    record = dataclasses.asdict(violation)
    if violation.fix is None:
        record.pop("fix")
    return record


def render(violations: Sequence[Violation], stream: TextIO) -> None:
    json.dump([as_dict(v) for v in violations], stream, indent=2)
    stream.write("\n")
