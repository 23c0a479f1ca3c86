"""`--format sarif`: a SARIF 2.1.0 log for GitHub code scanning (`github/codeql-action/upload-sarif`)
and other SARIF viewers.

The driver lists one rule per code the static linter can report, with its short description (the
page's first line), full description (why it is a bug) and help (the whole page), all taken from
the catalogue that `fsdp-lint rule` prints. Columns count Unicode code points, as the run declares;
paths are relative to the repository root (`%SRCROOT%`), which is where CI runs the linter.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, TextIO
from urllib.parse import quote

from fsdp_lint import __version__
from fsdp_lint.catalogue import Entry, catalogue
from fsdp_lint.frontends.docs import REPOSITORY, documentation_url, why
from fsdp_lint.frontends.output.paths import portable
from fsdp_lint.violation import Fix, Violation

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = REPOSITORY


def _rule(entry: Entry) -> Dict[str, Any]:
    return {
        "id": entry.code,
        "name": entry.name,
        "shortDescription": {"text": entry.summary},
        "fullDescription": {"text": why(entry)},
        "help": {"text": entry.doc, "markdown": entry.doc},
        "helpUri": documentation_url(entry),
        "defaultConfiguration": {"level": _level(entry.severity)},
        "properties": {"tags": ["fsdp", "correctness"], "problem.severity": entry.severity},
    }


def _level(severity: str) -> str:
    return "warning" if severity == "warning" else "error"


def _artifact(path: str) -> Dict[str, Any]:
    relative = portable(path)
    if os.path.isabs(relative):
        return {"uri": Path(relative).as_uri()}
    return {"uri": quote(relative), "uriBaseId": "%SRCROOT%"}


def _region(line: int, column: int, end_line: Optional[int], end_column: Optional[int]) -> Dict[str, int]:
    region = {"startLine": line, "startColumn": column}
    if end_line is not None and end_column is not None:
        region.update(endLine=end_line, endColumn=end_column)
    return region


def _location(path: str, line: int, column: int, text: str) -> Dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": _artifact(path), "region": _region(line, column, None, None)}, "message": {"text": text}}


def _fix(v: Violation, fix: Fix) -> Dict[str, Any]:
    return {
        "description": {"text": v.help or f"fix {v.code}"},
        "artifactChanges": [
            {
                "artifactLocation": _artifact(v.path),
                "replacements": [
                    {
                        "deletedRegion": _region(edit.line, edit.column, edit.end_line, edit.end_column),
                        "insertedContent": {"text": edit.text},
                    }
                    for edit in fix.edits
                ],
            }
        ],
        "properties": {"applicability": fix.applicability},  # ruff's: safe, or unsafe (`--unsafe-fixes`)
    }


def _result(v: Violation, index: int) -> Dict[str, Any]:
    result: Dict[str, Any] = {
        "ruleId": v.code,
        "ruleIndex": index,
        "level": _level(v.severity),
        "message": {"text": f"{v.message}\nhelp: {v.help}" if v.help else v.message},
        "locations": [
            {"physicalLocation": {"artifactLocation": _artifact(v.path), "region": _region(v.line, v.column, v.end_line, v.end_column)}}
        ],
    }
    if v.fix is not None:
        result["fixes"] = [_fix(v, v.fix)]
    if v.related:
        # How the object reached the finding: where it was sharded and each call that passed it on.
        notes = [_location(note.path, note.line, note.column, note.message) for note in v.related]
        result["relatedLocations"] = [dict(location, id=number) for number, location in enumerate(notes)]
        final = _location(v.path, v.line, v.column, v.message)
        result["codeFlows"] = [{"threadFlows": [{"locations": [{"location": location} for location in notes + [final]]}]}]
    return result


def document(violations: Sequence[Violation]) -> Dict[str, Any]:
    entries = [e for e in catalogue().values() if e.static or e.tool]
    index = {entry.code: i for i, entry in enumerate(entries)}
    results: List[Dict[str, Any]] = [_result(v, index[v.code]) for v in violations]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "fsdp-lint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(entry) for entry in entries],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def render(violations: Sequence[Violation], stream: TextIO) -> None:
    json.dump(document(violations), stream, indent=2)
    stream.write("\n")
