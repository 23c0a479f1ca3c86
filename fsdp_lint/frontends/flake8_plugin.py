"""The flake8 plugin (`FSD` codes): fsdp-lint's findings wherever flake8 already runs, in CI and in
every editor that runs flake8 on the buffer being edited.

The plugin reads the configuration the CLI would read for the same file: the `[tool.fsdp-lint]`
table of the nearest pyproject.toml above the file (not above flake8's working directory), with its
selection, per-file ignores, excludes under `force-exclude`, rule options and `analysis`
declarations. So the editor shows what `fsdp-lint FILE` prints in CI. flake8 then applies its own
`select`, `ignore`, `per-file-ignores` and `# noqa` on top, as it does for every plugin.

flake8 hands each file over on its own, so the cross-module facts (a helper in another module
that shards its argument, an optimizer built by another module's factory) only cover the file
itself: `fsdp-lint PATH` sees the whole project and finds more.

Editors send unsaved buffers on stdin (`flake8 --stdin-display-name PATH -`), so the plugin
analyses the `lines` flake8 passes and never reads `filename` (it only locates the configuration).
A crash inside it is reported on stderr and never stops flake8's run over the other files and
plugins.
"""

from __future__ import annotations

import ast
import os
import re
import sys
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator, List, Optional, Tuple, Type

from fsdp_lint import __version__

if TYPE_CHECKING:
    from fsdp_lint.engine.lint import LintOptions
    from fsdp_lint.frontends.config import Config

# Files that cannot mention FSDP cannot break its contracts: skip them before the costly parse,
# since flake8 runs every plugin on every file whatever `--select` says. The sharding functions a
# project declares (`[tool.fsdp-lint.analysis]`) are added to it per configuration, as the CLI's
# byte scan adds them.
_MENTIONS_FSDP = r"fsdp|fully_shard|FullySharded"


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class _Settings:
    __slots__ = ("config", "mentions")

    def __init__(self, config: "Config", mentions: "re.Pattern[str]"):
        self.config = config
        self.mentions = mentions


@lru_cache(maxsize=64)
def _settings_of(config_path: Optional[str]) -> _Settings:
    """The configuration `fsdp-lint FILE` would read (None: no file), and what a file must mention
    to be analysed under it. Nothing of the engine is imported here: flake8 runs the plugin on
    every file, and most cannot mention FSDP (importing the analysis, astroid with it, is 0.07 s)."""
    from fsdp_lint.frontends import config

    try:
        settings = config.load(config_path) if config_path else config.Config()
    except config.ConfigError as error:
        sys.stderr.write(f"fsdp-lint: {error}; using the built-in settings\n")
        settings = config.Config()
    declared = sorted(settings.apis.scan_names)
    mentions = re.compile("|".join([_MENTIONS_FSDP, *(re.escape(name) for name in declared)]), re.IGNORECASE)
    return _Settings(settings, mentions)


@lru_cache(maxsize=64)
def _options_of(config_path: Optional[str]) -> "LintOptions":
    """The options `fsdp-lint FILE` would use under this configuration file."""
    from fsdp_lint.frontends import config

    return config.lint_options(_settings_of(config_path).config, noqa=False)


@lru_cache(maxsize=256)
def _config_path(directory: str) -> Optional[str]:
    from fsdp_lint.frontends import config

    try:
        return config.find([directory])
    except config.ConfigError as error:
        sys.stderr.write(f"fsdp-lint: {error}; using the built-in settings\n")
        return None


def _config_of(filename: str) -> Optional[str]:
    """flake8 names stdin `stdin` (or the editor's `--stdin-display-name`): either way the name,
    taken from flake8's working directory, says where the configuration is."""
    return _config_path(os.path.dirname(os.path.abspath(filename)))


class Flake8Plugin:
    name = "fsdp-lint"
    version = __version__

    def __init__(self, tree: ast.AST, filename: str, lines: List[str]):
        # flake8 parses `lines` into `tree` once for every plugin: astroid's tree is rebuilt from it
        # (which leaves it as it was) instead of from a second parse.
        self.tree = tree
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[Tuple[int, int, str, Type["Flake8Plugin"]]]:
        text = "".join(self.lines)
        try:
            config_path = _config_of(self.filename)
            settings = _settings_of(config_path)
            if not settings.mentions.search(text):
                return
            options = _options_of(config_path)
            if settings.config.force_exclude:
                from fsdp_lint.frontends.config import excluded

                if excluded(self.filename, tuple(options.exclude)):
                    return
            from fsdp_lint.engine.lint import lint_sources

            syntax = {self.filename: self.tree} if isinstance(self.tree, ast.Module) else {}
            result = lint_sources({self.filename: text}, options, syntax=syntax)
        except Exception as error:  # flake8 aborts its whole run on a plugin's exception
            sys.stderr.write(f"fsdp-lint: internal error on {self.filename}: {type(error).__name__}: {error} (file skipped)\n")
            return
        for failure in result.internal_errors:
            sys.stderr.write(failure.describe() + "\n")
        for v in result.violations:
            yield v.line, v.column - 1, f"{v.code} {v.message}", type(self)
