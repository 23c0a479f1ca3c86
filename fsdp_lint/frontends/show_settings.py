"""`--show-settings`: the settings a run would use, each with where it came from (the built-in
default, the configuration file, a command-line flag), as TOML a user can paste back into
`[tool.fsdp-lint]`."""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING, List, Sequence, Tuple

from fsdp_lint import __version__

if TYPE_CHECKING:
    from fsdp_lint.engine.lint import LintOptions
    from fsdp_lint.frontends.config import Config


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value)


def show_settings(args: argparse.Namespace, settings: Config, options: LintOptions, located: Sequence[str]) -> str:
    from fsdp_lint.engine import parallel

    config = settings.path
    if args.isolated:
        where = "none (--isolated)"
    elif args.config:
        where = f"{config} (--config)"
    elif config:
        where = f"{config} (the nearest pyproject.toml with [tool.fsdp-lint] above {' '.join(located) or '.'})"
    else:
        where = f"none found above {' '.join(located) or '.'}"
    rows: List[Tuple[str, str, str]] = []

    def row(key: str, value: object, *sources: Tuple[object, str]) -> None:
        named = [source for present, source in sources if present]
        rows.append((key, _toml(value), " + ".join(named) or "default"))

    from_file = config or "config"
    select = options.selection.select
    row("select", list(select), (args.select, "--select"), (not args.select and settings.select is not None, from_file),
        (not args.select and settings.extend_select, f"{from_file} extend-select"), (args.extend_select, "--extend-select"))
    row("ignore", list(options.selection.ignore), (settings.ignore, from_file), (args.ignore, "--ignore"))
    per_file = {}
    for entry in options.selection.per_file_ignores:
        per_file.setdefault(entry.pattern, []).extend(entry.codes)
    rows.append(("per-file-ignores", "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in per_file.items()) + "}",
                 from_file if per_file else "default"))
    row("exclude", list(options.exclude), (args.exclude, "--exclude"), (not args.exclude and settings.exclude, from_file),
        (settings.extend_exclude, f"{from_file} extend-exclude"), (args.extend_exclude, "--extend-exclude"))
    row("respect-gitignore", options.respect_gitignore, (args.respect_gitignore is not None, "--no-respect-gitignore"),
        (args.respect_gitignore is None and settings.path and not settings.respect_gitignore, from_file))
    force_exclude = settings.force_exclude if args.force_exclude is None else args.force_exclude
    row("force-exclude", force_exclude, (args.force_exclude is not None, "--force-exclude"),
        (args.force_exclude is None and settings.force_exclude, from_file))
    lines = [f"# fsdp-lint {__version__}", f"# configuration file: {where}", ""]
    width = max(len(f"{key} = {value}") for key, value, _ in rows)
    lines += [f"{f'{key} = {value}':<{width}}  # {source}" for key, value, source in rows]
    for setting in options.rule_settings:
        lines += ["", f"[rules.{setting.code}]", f"{setting.option} = {_toml(list(setting.values))}  # {from_file}"]
    apis = options.apis
    if apis.shard_functions or apis.optimizers:
        lines += ["", "[analysis]"]
        lines.append(f"extra-shard-functions = {_toml(sorted(apis.shard_functions))}  # {from_file}")
        lines.append(f"extra-optimizers = {_toml(sorted(apis.optimizers))}  # {from_file}")
    cache = "none (--no-cache)" if options.cache_dir is None else os.path.abspath(options.cache_dir)
    cache_source = "--no-cache" if args.no_cache else "--cache-dir" if args.cache_dir else "the project root" if settings.path or cache != os.path.abspath(".fsdp_lint_cache") else "the working directory"
    lines += ["", "# run (command line only)", f"# cache: {cache}  ({cache_source})",
              f"# jobs: {parallel.job_count(options.jobs)}  ({'--jobs' if args.jobs else 'default: one per core'})"]
    return "\n".join(lines) + "\n"
