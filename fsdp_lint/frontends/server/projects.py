"""Which project an open file belongs to and which settings govern it, resolved as the CLI
resolves them for `fsdp-lint - --stdin-filename FILE`: the `[tool.fsdp-lint]` table of the
nearest pyproject.toml above the file, and its project linted whole so that facts from the other
modules reach the file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional, Sequence

from fsdp_lint.engine.lint import LintOptions
from fsdp_lint.frontends import config


@dataclass(frozen=True)
class Project:
    """A tree linted in one run, with the options every file in it is linted with."""

    root: Optional[str]  # None: the file alone (no folder on disk holds it)
    options: LintOptions
    force_exclude: bool  # the configuration's excludes apply to the open files too


@dataclass(frozen=True)
class Governed:
    project: Project
    problem: Optional[str] = None  # a configuration error: the file is linted with the defaults


def project_of(path: str, folders: Sequence[str], cache_dir: str) -> Governed:
    """The project of the file at `path` (absolute): the directory of the pyproject.toml that
    configures it, else the innermost workspace folder that holds it, else the repository root
    above it, else none (the open files alone, as `fsdp-lint - --stdin-filename` lints a file
    outside any project). A bad configuration is reported, never fatal: the editor keeps showing
    findings, under the built-in settings, while the file is being fixed."""
    problem = None
    try:
        settings = config.resolve([path])
    except config.ConfigError as error:
        settings, problem = config.Config(), str(error)
    # One process, one thread for the run: forking workers from a server with threads is unsafe,
    # and an edit relints little.
    options = config.lint_options(settings, jobs=1, cache_dir=cache_dir)
    root = _root(path, settings.path, folders)
    return Governed(Project(root if root is not None and os.path.isdir(root) else None, options, settings.force_exclude), problem)


def _root(path: str, config_path: Optional[str], folders: Sequence[str]) -> Optional[str]:
    if config_path:
        return os.path.dirname(os.path.abspath(config_path))
    holding = [folder for folder in folders if _inside(path, folder)]
    if holding:
        return max(holding, key=len)
    return config.project_root([path], None)


def _inside(path: str, folder: str) -> bool:
    folder = os.path.abspath(folder)
    return os.path.commonpath([path, folder]) == folder


def excluded(path: str, project: Project) -> bool:
    """Whether `force-exclude` keeps the file out, as it keeps it out of `fsdp-lint - --stdin-filename`."""
    return project.force_exclude and config.excluded(path, project.options.exclude)
