"""`[tool.fsdp-lint]` in pyproject.toml: the project's settings, so that CI, pre-commit and every
developer's terminal run the same selection without repeating flags.

The file is found by walking up from the linted paths to the first pyproject.toml that has the
table, stopping at the repository root (pylint's and ruff's rule). Keys use ruff's vocabulary:

    [tool.fsdp-lint]
    select = ["FSD"]                      # codes or prefixes; the command line's --select replaces it
    extend-select = []
    ignore = ["FSD101"]
    per-file-ignores = { "tests/*" = ["FSD2"], "!src/*" = ["FSD"] }
    exclude = ["generated"]               # globs; --exclude replaces them
    extend-exclude = ["third_party/"]
    respect-gitignore = true
    force-exclude = false                 # also exclude files named explicitly (pre-commit passes them)
    target-version = "py312"              # the oldest Python the project supports; default: the
                                          # lower bound of [project] requires-python

    [tool.fsdp-lint.rules.FSD202]         # per-rule options, as each rule declares them
    extend-remapping-calls = ["wrap_for_training"]

    [tool.fsdp-lint.analysis]             # APIs from installed packages the analysis cannot read
    extra-shard-functions = ["mylib.parallel.apply_fsdp"]   # shard their first argument
    extra-optimizers = ["mylib.optim.Lion"]

Anything else is a usage error naming the key and the file: a typo must not silently lint with
the defaults.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from fsdp_lint.analysis.declared_apis import DeclaredApis
from fsdp_lint.selection import PerFileIgnore

if TYPE_CHECKING:
    from fsdp_lint.engine.lint import LintOptions
    from fsdp_lint.engine.rule import RuleSetting

TABLES = ("fsdp-lint", "fsdp_lint")
_KEYS = (
    "select", "extend-select", "ignore", "per-file-ignores", "exclude", "extend-exclude",
    "respect-gitignore", "force-exclude", "rules", "analysis", "target-version",
)
_ANALYSIS_KEYS = ("extra-shard-functions", "extra-optimizers")
# Patterns here are compiled on first use (by `re`'s cache): most runs read no configuration.
_QUALIFIED = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\Z"


class ConfigError(Exception):
    """A bad configuration file: the CLI prints it and exits 2."""

    def __init__(self, path: str, key: str, problem: str):
        super().__init__(f"{path}: [tool.fsdp-lint] {key}: {problem}")


@dataclass(frozen=True)
class Config:
    """The settings of one pyproject.toml (all empty when there is none)."""

    path: Optional[str] = None
    select: Optional[Tuple[str, ...]] = None
    extend_select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[PerFileIgnore, ...] = ()
    exclude: Tuple[str, ...] = ()
    extend_exclude: Tuple[str, ...] = ()
    respect_gitignore: bool = True
    force_exclude: bool = False
    rule_settings: Tuple[RuleSetting, ...] = ()
    apis: DeclaredApis = DeclaredApis()
    keys: FrozenSet[str] = frozenset()  # the keys the file sets (`--show-settings` names them as the source)
    target_version: Optional[Tuple[int, int]] = None  # `target-version`, else `requires-python`'s lower bound


def _toml(path: str) -> Mapping[str, Any]:
    """The parsed file; OSError, or ValueError for what is not TOML (or not UTF-8). The parser is
    imported here: a run with `--isolated`, or with no pyproject.toml, reads none (3 ms)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def _table(path: str) -> Optional[Mapping[str, Any]]:
    try:
        data = _toml(path)
    except ValueError as error:
        raise ConfigError(path, "(file)", f"not valid TOML: {error}") from None
    except OSError as error:
        raise ConfigError(path, "(file)", f"cannot read: {error.strerror or error}") from None
    tool = data.get("tool", {})
    for name in TABLES:
        if name in tool:
            if not isinstance(tool[name], dict):
                raise ConfigError(path, name, "must be a table")
            return tool[name]
    return None


def _start(paths: Sequence[str]) -> str:
    """The directory that holds every linted path (a file's own directory for one file)."""
    absolute = [os.path.abspath(p) for p in paths] or [os.getcwd()]
    try:
        directory = os.path.commonpath(absolute)
    except ValueError:  # paths on different drives
        directory = os.getcwd()
    return directory if os.path.isdir(directory) else os.path.dirname(directory)


def _is_repository_root(directory: str) -> bool:
    return any(os.path.exists(os.path.join(directory, vcs)) for vcs in (".git", ".hg"))


def find(paths: Sequence[str]) -> Optional[str]:
    """The pyproject.toml with a `[tool.fsdp-lint]` table nearest above the linted paths."""
    directory = _start(paths)
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate) and _table(candidate) is not None:
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory or _is_repository_root(directory):
            return None
        directory = parent


def project_root(paths: Sequence[str], config_path: Optional[str]) -> Optional[str]:
    """The project the linted paths belong to: the directory of the pyproject.toml that configures
    the run, else the repository root above them, else None (ruff's rule for its cache)."""
    if config_path:
        return os.path.dirname(os.path.abspath(config_path))
    directory = _start(paths)
    while True:
        if _is_repository_root(directory):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


@lru_cache(maxsize=1)
def _known_codes() -> Tuple[str, ...]:
    from fsdp_lint.catalogue import catalogue

    return tuple(catalogue())


def unknown_code(code: str) -> Optional[str]:
    """None when `code` is a code or a prefix of one (`FSD`, `FSD2`, `FSD201`); else what is wrong
    with it, naming the closest codes, so that a typo stops the run instead of selecting nothing."""
    known = _known_codes()
    if any(existing.startswith(code) for existing in known):
        return None
    import difflib  # only for a code that is wrong

    def nearness(existing: str) -> Tuple[float, int]:
        distance = abs(int(existing[3:]) - int(code[3:6].ljust(3, "0"))) if code[3:6].isdigit() else 0
        return (-difflib.SequenceMatcher(None, code, existing).ratio(), distance)

    closest = [c for c in sorted(known, key=nearness)[:3] if difflib.SequenceMatcher(None, code, c).ratio() >= 0.6]
    hint = f"closest: {', '.join(closest)}" if closest else "codes look like FSD201, prefixes like FSD2"
    return f"unknown code or prefix {code!r} ({hint}; `fsdp-lint rules` lists them)"


def load(path: str) -> Config:
    """Read and validate the `[tool.fsdp-lint]` table of `path` (a pyproject.toml)."""
    table = _table(path)
    if table is None:
        if os.path.basename(path) == "pyproject.toml":
            return Config(path=path, target_version=requires_python(path))
        raise ConfigError(path, "(file)", "has no [tool.fsdp-lint] table")
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise ConfigError(path, unknown[0], f"unknown key (known keys: {', '.join(_KEYS)})")
    base = os.path.dirname(os.path.abspath(path))
    select = table.get("select")
    return Config(
        path=path,
        keys=frozenset(table),
        select=None if select is None else _codes(path, "select", select),
        extend_select=_codes(path, "extend-select", table.get("extend-select", [])),
        ignore=_codes(path, "ignore", table.get("ignore", [])),
        per_file_ignores=_per_file_ignores(path, table.get("per-file-ignores", {}), base),
        exclude=_globs(path, "exclude", table.get("exclude", [])),
        extend_exclude=_globs(path, "extend-exclude", table.get("extend-exclude", [])),
        respect_gitignore=_bool(path, "respect-gitignore", table.get("respect-gitignore", True)),
        force_exclude=_bool(path, "force-exclude", table.get("force-exclude", False)),
        rule_settings=_rule_settings(path, table.get("rules", {})),
        apis=_declared_apis(path, table.get("analysis", {})),
        target_version=_target_version(path, table["target-version"]) if "target-version" in table else requires_python(path),
    )


def resolve(paths: Sequence[str], explicit: Optional[str] = None, isolated: bool = False) -> Config:
    """The settings that govern `paths`: the file `explicit` names (`--config`), else the nearest
    `[tool.fsdp-lint]` above them, else the defaults with the project's Python; `isolated`, the
    defaults alone. The CLI and the language server both start here, so that an editor shows for
    a file what `fsdp-lint FILE` prints."""
    if isolated:
        return Config()
    path = explicit or find(paths)
    return load(path) if path else unconfigured(paths)


def unconfigured(paths: Sequence[str]) -> Config:
    """The settings of a run that no `[tool.fsdp-lint]` table configures: the defaults, and the
    Python of the project the paths are in (the nearest pyproject.toml's `requires-python`)."""
    directory = _start(paths)
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate):
            return Config(target_version=requires_python(candidate))
        parent = os.path.dirname(directory)
        if parent == directory or _is_repository_root(directory):
            return Config()
        directory = parent


_TARGET = r"py3(\d{1,2})\Z"
_LOWER_BOUND = r"\s*(>=|~=|==|>)\s*(\d+)(?:\.(\d+))?"


def _target_version(path: str, value: Any) -> Tuple[int, int]:
    """`target-version = "py312"` (ruff's spelling) -> (3, 12)."""
    match = re.match(_TARGET, value) if isinstance(value, str) else None
    if match is None:
        raise ConfigError(path, "target-version", f"must be a Python version like \"py312\", not {value!r}")
    return 3, int(match.group(1))


def requires_python(path: str) -> Optional[Tuple[int, int]]:
    """The oldest Python that `[project] requires-python` of `path` allows (`>=3.12`, `~=3.12.1`,
    `==3.12.*`, `>3.11` give 3.12, 3.12, 3.12, 3.11); None where it sets no lower bound or none is
    readable: a bad requires-python is the packaging tools' to report, not a reason to stop."""
    try:
        value = _toml(path).get("project", {}).get("requires-python")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(value, str):
        return None
    bounds = []
    for clause in value.split(","):
        match = re.match(_LOWER_BOUND, clause)
        if match and match.group(2) == "3":
            bounds.append((3, int(match.group(3) or 0)))
    return max(bounds) if bounds else None


def lint_options(
    settings: Config,
    select: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    exclude: Sequence[str] = (),
    extend_exclude: Sequence[str] = (),
    respect_gitignore: Optional[bool] = None,
    **engine: Any,
) -> LintOptions:
    """A run's options from its configuration and the command line's flags, each flag replacing or
    extending its key as in ruff: `select` and `exclude` replace, the others add. The CLI and the
    flake8 plugin both build their options here, so that they agree on every file."""
    from fsdp_lint.engine.lint import LintOptions
    from fsdp_lint.selection import Selection

    chosen = tuple(select) if select else (settings.select or ("FSD",)) + settings.extend_select
    selection = Selection(chosen + tuple(extend_select), settings.ignore + tuple(ignore), settings.per_file_ignores)
    return LintOptions(
        selection=selection,
        exclude=(tuple(exclude) if exclude else settings.exclude) + settings.extend_exclude + tuple(extend_exclude),
        respect_gitignore=settings.respect_gitignore if respect_gitignore is None else respect_gitignore,
        rule_settings=settings.rule_settings,
        apis=settings.apis,
        target_version=settings.target_version,
        **engine,
    )


def _strings(path: str, key: str, value: Any) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(path, key, f"must be a list of strings, not {value!r}")
    return value


def _codes(path: str, key: str, value: Any) -> Tuple[str, ...]:
    codes = [item.strip().upper() for item in _strings(path, key, value)]
    for code in codes:
        problem = unknown_code(code)
        if problem:
            raise ConfigError(path, key, problem)
    return tuple(codes)


def _globs(path: str, key: str, value: Any) -> Tuple[str, ...]:
    return tuple(item.rstrip("/") for item in _strings(path, key, value) if item.strip("/"))


def _bool(path: str, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(path, key, f"must be true or false, not {value!r}")
    return value


def _per_file_ignores(path: str, value: Any, base: str) -> Tuple[PerFileIgnore, ...]:
    if not isinstance(value, dict):
        raise ConfigError(path, "per-file-ignores", "must be a table of glob = [codes]")
    return tuple(
        PerFileIgnore(pattern, _codes(path, f"per-file-ignores.{pattern!r}", codes), base) for pattern, codes in value.items()
    )


def _rule_settings(path: str, value: Any) -> Tuple[RuleSetting, ...]:
    """`[tool.fsdp-lint.rules.CODE]` tables, checked against the options each rule declares."""
    if not isinstance(value, dict):
        raise ConfigError(path, "rules", "must be a table of [tool.fsdp-lint.rules.CODE] tables")
    if not value:
        return ()
    from fsdp_lint.engine.registry import all_rules
    from fsdp_lint.engine.rule import RuleSetting

    rules = all_rules()
    found: List[RuleSetting] = []
    for code, options in value.items():
        key = f"rules.{code}"
        rule = rules.get(code.upper())
        if rule is None:
            raise ConfigError(path, key, "no static rule has this code (`fsdp-lint rules` lists them)")
        if not isinstance(options, dict):
            raise ConfigError(path, key, "must be a table of options")
        declared = {option.name for option in rule.OPTIONS}
        for name, values in options.items():
            if name not in declared:
                known = ", ".join(sorted(declared)) or "none"
                raise ConfigError(path, f"{key}.{name}", f"unknown option of {rule.code} (its options: {known})")
            found.append(RuleSetting(rule.code, name, tuple(_strings(path, f"{key}.{name}", values))))
    return tuple(found)


def _declared_apis(path: str, value: Any) -> DeclaredApis:
    """`[tool.fsdp-lint.analysis]`: qualified names, since the analysis compares them with the
    names that calls resolve to through their imports."""
    if not isinstance(value, dict):
        raise ConfigError(path, "analysis", "must be a table of [tool.fsdp-lint.analysis] keys")
    unknown = sorted(set(value) - set(_ANALYSIS_KEYS))
    if unknown:
        raise ConfigError(path, f"analysis.{unknown[0]}", f"unknown key (known keys: {', '.join(_ANALYSIS_KEYS)})")
    found = {}
    for key in _ANALYSIS_KEYS:
        names = _strings(path, f"analysis.{key}", value.get(key, []))
        for name in names:
            if not re.match(_QUALIFIED, name):
                raise ConfigError(path, f"analysis.{key}", f"{name!r} is not a qualified name (package.module.name)")
        found[key] = frozenset(names)
    return DeclaredApis(found["extra-shard-functions"], found["extra-optimizers"])


def excluded(path: str, patterns: Sequence[str]) -> bool:
    """Whether `path` or a directory above it matches an exclude glob (for `force-exclude`)."""
    from fsdp_lint.engine.files import matches_exclude

    current = os.path.normpath(path)
    while current and current not in (".", os.sep):
        if matches_exclude(current, patterns):
            return True
        current = os.path.dirname(current)
    return False
