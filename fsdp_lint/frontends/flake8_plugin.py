"""The flake8 plugin (`FSD` codes): fsdp-lint's findings wherever flake8 already runs, in CI and in
every editor that runs flake8 on the buffer being edited.

flake8 hands each file over on its own, so the cross-module facts (a helper in another module
that shards its argument, an optimizer built by another module's factory) only cover the file
itself: `fsdp-lint PATH` sees the whole project and finds more. flake8 does its own selection,
`# noqa` and per-file-ignores, so the plugin reports every finding and lets flake8 filter; rule
options still come from `[tool.fsdp-lint.rules.*]` of the pyproject.toml above the working
directory.

Editors send unsaved buffers on stdin (`flake8 --stdin-display-name PATH -`), so the plugin
analyses the `lines` flake8 passes and never reads `filename`. A crash inside it is reported on
stderr and never stops flake8's run over the other files and plugins.
"""

from __future__ import annotations

import ast
import os
import re
import sys
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator, List, Tuple, Type

from fsdp_lint import __version__

if TYPE_CHECKING:
    from fsdp_lint.engine.rule import RuleSetting

# Files that cannot mention FSDP cannot break its contracts: skip them before the costly parse,
# since flake8 runs every plugin on every file whatever `--select` says.
_MENTIONS_FSDP = re.compile(r"fsdp|fully_shard|FullySharded", re.IGNORECASE)


@lru_cache(maxsize=1)
def _rule_settings() -> Tuple["RuleSetting", ...]:
    from fsdp_lint.frontends import config

    try:
        path = config.find([os.getcwd()])
        return config.load(path).rule_settings if path else ()
    except config.ConfigError as error:
        sys.stderr.write(f"fsdp-lint: {error}; using the rules' built-in options\n")
        return ()


class Flake8Plugin:
    name = "fsdp-lint"
    version = __version__

    def __init__(self, tree: ast.AST, filename: str, lines: List[str]):
        # flake8 classifies plugins by their parameters: `tree` is required even though the rules
        # work on astroid's tree, rebuilt from `lines`.
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[Tuple[int, int, str, Type["Flake8Plugin"]]]:
        text = "".join(self.lines)
        if not _MENTIONS_FSDP.search(text):
            return
        try:
            from fsdp_lint.engine.lint import LintOptions, lint_sources

            result = lint_sources({self.filename: text}, LintOptions(noqa=False, rule_settings=_rule_settings()))
        except Exception as error:  # flake8 aborts its whole run on a plugin's exception
            sys.stderr.write(f"fsdp-lint: internal error on {self.filename}: {type(error).__name__}: {error} (file skipped)\n")
            return
        for failure in result.internal_errors:
            sys.stderr.write(failure.describe() + "\n")
        for v in result.violations:
            yield v.line, v.column - 1, f"{v.code} {v.message}", type(self)
