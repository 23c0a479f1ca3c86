"""`--show-settings`: the settings a run would use, each with where it came from (the built-in
default, the configuration file, a command-line flag), written as the TOML of `[tool.fsdp-lint]`
so that a line can be pasted back into pyproject.toml."""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING, Dict, List, Sequence, Tuple

from fsdp_lint import __version__

if TYPE_CHECKING:
    from fsdp_lint.engine.lint import LintOptions
    from fsdp_lint.frontends.config import Config


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def show_settings(args: argparse.Namespace, settings: Config, options: LintOptions, located: Sequence[str]) -> str:
    from fsdp_lint.engine import parallel
    from fsdp_lint.frontends.config import project_root

    above = " ".join(located) or "."
    if args.isolated:
        where = "none (--isolated)"
    elif args.config:
        where = f"{settings.path} (--config)"
    elif settings.path:
        where = f"{settings.path} (the nearest pyproject.toml with [tool.fsdp-lint] above {above})"
    else:
        where = f"none found above {above}"
    in_file = settings.keys.__contains__
    rows: List[Tuple[str, object, List[str]]] = []

    def row(key: str, value: object, *sources: Tuple[object, str]) -> None:
        rows.append((key, value, [source for present, source in sources if present]))

    config = str(settings.path)
    row("select", list(options.selection.select), (args.select, "--select"), (not args.select and in_file("select"), config),
        (not args.select and in_file("extend-select"), f"{config} extend-select"), (args.extend_select, "--extend-select"))
    row("ignore", list(options.selection.ignore), (in_file("ignore"), config), (args.ignore, "--ignore"))
    per_file: Dict[str, List[str]] = {}
    for entry in options.selection.per_file_ignores:
        per_file.setdefault(entry.pattern, []).extend(entry.codes)
    row("per-file-ignores", per_file, (in_file("per-file-ignores"), config))
    row("exclude", list(options.exclude), (args.exclude, "--exclude"), (not args.exclude and in_file("exclude"), config),
        (in_file("extend-exclude"), f"{config} extend-exclude"), (args.extend_exclude, "--extend-exclude"))
    row("respect-gitignore", options.respect_gitignore, (args.respect_gitignore is not None, "--no-respect-gitignore"),
        (args.respect_gitignore is None and in_file("respect-gitignore"), config))
    force_exclude = settings.force_exclude if args.force_exclude is None else args.force_exclude
    row("force-exclude", force_exclude, (args.force_exclude is not None, "--force-exclude"),
        (args.force_exclude is None and in_file("force-exclude"), config))
    shown = [(f"{key} = {_toml(value)}", " + ".join(sources) or "default") for key, value, sources in rows]
    width = max(len(text) for text, _ in shown)
    lines = [f"# fsdp-lint {__version__}", f"# configuration file: {where}", ""]
    lines += [f"{text:<{width}}  # {source}" for text, source in shown]
    for setting in options.rule_settings:
        lines += ["", f"[rules.{setting.code}]", f"{setting.option} = {_toml(list(setting.values))}  # {config}"]
    apis = options.apis
    if apis.shard_functions or apis.optimizers:
        lines += ["", "[analysis]", f"extra-shard-functions = {_toml(sorted(apis.shard_functions))}  # {config}",
                  f"extra-optimizers = {_toml(sorted(apis.optimizers))}  # {config}"]
    if args.no_cache:
        cache = "none (--no-cache)"
    elif args.cache_dir:
        cache = f"{os.path.abspath(args.cache_dir)} (--cache-dir)"
    else:
        root = project_root(located, settings.path)
        cache = f"{os.path.abspath(str(options.cache_dir))} ({'the project root' if root else 'no project root: the working directory'})"
    jobs = f"{parallel.job_count(options.jobs)} ({'--jobs' if args.jobs else 'default: one per core'})"
    lines += ["", "# the run (command line only)", f"# cache: {cache}", f"# jobs: {jobs}"]
    return "\n".join(lines) + "\n"
