"""What the server knows of the editor's files: the open files, grouped into the projects they are
linted with, and what each run found in each of them.

A run lints every project that holds an open file, once, with all of that project's open files
as buffers, so that an edit in one file shows up in the findings of another (a helper that
starts sharding its argument, an optimizer factory moved before `fully_shard`).
"""

from __future__ import annotations

import codecs
import io
import os
import tokenize
import traceback
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from fsdp_lint.engine.tree_analysis import BUG_TRACKER, InternalError
from fsdp_lint.frontends.server.linting import lint_project
from fsdp_lint.frontends.server.projects import Project, excluded, project_of
from fsdp_lint.violation import Violation

PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass(frozen=True)
class OpenFile:
    """An editor buffer, as it was when a run started."""

    uri: str
    path: str  # absolute
    version: Optional[int]
    text: str


@dataclass
class Outcome:
    """What one run found: the findings in each open file it linted (by URI; a file with none is
    there with an empty list, so that its old diagnostics are cleared), the crashes it survived,
    and the configuration problems it met."""

    findings: Dict[str, List[Violation]] = field(default_factory=dict)
    files: Dict[str, OpenFile] = field(default_factory=dict)
    internal_errors: List[InternalError] = field(default_factory=list)
    problems: List[str] = field(default_factory=list)
    failures: List[str] = field(default_factory=list)  # a project whose run crashed: its files keep their findings


def is_python(path: str, language: Optional[str]) -> bool:
    return language == "python" or path.endswith(PYTHON_SUFFIXES)


def lint_open_files(files: Sequence[OpenFile], folders: Sequence[str], cache_dir: str) -> Outcome:
    """Lint the projects of `files`, each once. A crash of the engine on one project is recorded
    with its traceback and the others are still linted: the server must keep serving."""
    outcome = Outcome()
    projects: Dict[Project, List[OpenFile]] = {}
    for file in files:
        governed = project_of(file.path, folders, cache_dir)
        if governed.problem is not None and governed.problem not in outcome.problems:
            outcome.problems.append(governed.problem)
        outcome.files[file.uri] = file
        if excluded(file.path, governed.project):
            outcome.findings[file.uri] = []
        else:
            projects.setdefault(governed.project, []).append(file)
    for project, members in projects.items():
        try:
            result = lint_project(project, {file.path: _encoded(file.text) for file in members})
        except Exception as error:  # whatever it is, it is reported and the server goes on
            trace = "".join(traceback.format_exception(error))
            outcome.failures.append(f"fsdp-lint: the run over {project.root or 'the open files'} crashed; please report it at {BUG_TRACKER}\n{trace}")
            continue
        outcome.internal_errors.extend(result.internal_errors)
        wanted: Dict[str, str] = {os.path.abspath(file.path): file.uri for file in members}
        for file in members:
            outcome.findings[file.uri] = []
        for violation in result.violations:
            uri = wanted.get(os.path.abspath(violation.path))
            if uri is not None:
                outcome.findings[uri].append(violation)
    return outcome


def _encoded(text: str) -> bytes:
    """The buffer as the bytes its file would hold: in the encoding its coding cookie declares
    (PEP 263), else UTF-8, so that the engine decodes it back to the same text."""
    data = text.encode("utf-8", "surrogatepass")
    try:
        declared, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        if codecs.lookup(declared).name != "utf-8":
            return text.encode(declared)
    except (SyntaxError, LookupError, UnicodeError):
        pass  # a bad or unencodable cookie: the engine reports the file as it would on disk
    return data
