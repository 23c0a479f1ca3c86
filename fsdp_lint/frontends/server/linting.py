"""The server's one call into the engine. Everything the server knows about a run goes through
`lint_project`, so that an analysis kept in memory between edits (issue 16) replaces its body
and nothing else."""

from __future__ import annotations

from typing import Mapping

from fsdp_lint.engine.lint import LintResult, lint_paths
from fsdp_lint.frontends.server.projects import Project


def lint_project(project: Project, buffers: Mapping[str, bytes]) -> LintResult:
    """Lint the project with each open file's buffer (by absolute path) in place of its file on
    disk. The engine's result cache (the project's `cache_dir`) answers an unchanged tree at once
    and reuses the analysis when the edit cannot change it."""
    return lint_paths([project.root] if project.root is not None else [], project.options, buffers)
