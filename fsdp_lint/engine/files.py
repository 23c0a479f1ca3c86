"""Which files a run lints: `.py`/`.pyi` files under the given paths, minus VCS, virtualenv and
build directories, `.gitignore`d paths and `--exclude` globs. Paths named on the command line are
always linted, as in ruff and flake8."""

from __future__ import annotations

import fnmatch
import logging
import os
import re
from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence, Tuple

DEFAULT_EXCLUDED_DIRS = frozenset(
    {".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", "__pycache__", "build", "dist",
     "node_modules", ".eggs", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".fsdp_lint_cache",
     "site-packages", "__pypackages__", ".direnv"}
)
PYTHON_SUFFIXES = (".py", ".pyi")

log = logging.getLogger("fsdp_lint")  # `fsdp-lint -v`: what discovery skipped and why


@dataclass(frozen=True)
class Discovered:
    path: str      # as the user will read it: relative to the command-line argument's form
    explicit: bool


class _GitIgnore:
    """The subset of gitignore semantics that matters for skipping paths: globs, `**`, anchored
    patterns, directory-only patterns and `!` negation, scoped to the directory of the file."""

    def __init__(self, base: str, lines: Sequence[str]):
        self.base = base
        self.rules: List[Tuple[re.Pattern, bool, bool]] = []
        for raw in lines:
            line = raw.rstrip("\n").rstrip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            if negate:
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.strip("/") if dir_only else line
            anchored = "/" in line.lstrip("/") or raw.startswith("/")
            line = line.lstrip("/")
            pattern = _glob_to_regex(line)
            if not anchored:
                pattern = r"(?:.*/)?" + pattern
            self.rules.append((re.compile(pattern + r"\Z"), negate, dir_only))
        # One alternation of every pattern: most paths match none, and one search says so.
        self.any_rule = re.compile("|".join(f"(?:{p.pattern})" for p, _, _ in self.rules)) if self.rules else None
        self.prefix = self.base.rstrip(os.sep) + os.sep

    def ignored(self, path: str, is_dir: bool) -> Optional[bool]:
        if self.any_rule is None:
            return None
        relative = path[len(self.prefix):] if path.startswith(self.prefix) else os.path.relpath(path, self.base)
        relative = relative.replace(os.sep, "/")
        if self.any_rule.match(relative) is None:
            return None
        verdict = None
        for pattern, negate, dir_only in self.rules:
            if dir_only and not is_dir:
                continue
            if pattern.match(relative):
                verdict = not negate
        return verdict


def _glob_to_regex(glob: str) -> str:
    out, i = [], 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append(r"(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(r".*")
            i += 2
            continue
        out.append({"*": r"[^/]*", "?": r"[^/]"}.get(c) or (fnmatch.translate(c)[4:-3] if c == "[" else re.escape(c)))
        i += 1
    return "".join(out)


def _is_virtualenv(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "pyvenv.cfg"))


def matches_exclude(path: str, patterns: Sequence[str]) -> bool:
    if not patterns:
        return False
    normal = path.replace(os.sep, "/")
    name = os.path.basename(normal.rstrip("/"))
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(normal, p) or fnmatch.fnmatch(normal, f"*/{p}") for p in patterns)


def discover(paths: Sequence[str], exclude: Sequence[str] = (), respect_gitignore: bool = True) -> Iterator[Discovered]:
    """Yield each file once, in a stable order; missing paths raise FileNotFoundError."""
    seen = set()
    for given in paths:
        if not os.path.lexists(given):
            raise FileNotFoundError(given)
        if not os.path.isdir(given):
            key = os.path.realpath(given) if os.path.exists(given) else given
            if key not in seen:
                seen.add(key)
                yield Discovered(given, explicit=True)
            continue
        real_top = os.path.realpath(given)
        for found, is_link in _walk(given, exclude, respect_gitignore):
            # The walk follows no directory link, so only a linked file needs resolving.
            if is_link:
                key = os.path.realpath(found) if os.path.exists(found) else found
            else:
                key = os.path.join(real_top, found if given == "." else found[len(given):].lstrip(os.sep))
            if key not in seen:
                seen.add(key)
                yield Discovered(found, explicit=False)


def _walk(top: str, exclude: Sequence[str], respect_gitignore: bool) -> Iterator[Tuple[str, bool]]:
    ignores: List[_GitIgnore] = []
    if respect_gitignore:
        ignores = _parent_gitignores(top)
    yield from _walk_dir(top, exclude, ignores, respect_gitignore)


def _parent_gitignores(top: str) -> List[_GitIgnore]:
    """.gitignore files of the enclosing repository that apply to `top` (up to the repo root)."""
    found = []
    current = os.path.abspath(top)
    while True:
        parent = os.path.dirname(current)
        if parent == current:
            return []
        current = parent
        candidate = os.path.join(current, ".gitignore")
        if os.path.isfile(candidate):
            found.insert(0, _load_gitignore(current))
        if os.path.exists(os.path.join(current, ".git")):
            return [g for g in found if g is not None]


def _load_gitignore(directory: str) -> Optional[_GitIgnore]:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as handle:
            return _GitIgnore(os.path.abspath(directory), handle.readlines())
    except OSError:
        return None


def _ignored(path: str, is_dir: bool, ignores: Sequence[_GitIgnore]) -> bool:
    if not ignores:
        return False
    absolute = os.path.abspath(path)
    verdict = False
    for ignore in ignores:
        if absolute.startswith(ignore.base + os.sep):
            result = ignore.ignored(absolute, is_dir)
            if result is not None:
                verdict = result
    return verdict


def _walk_dir(directory: str, exclude: Sequence[str], ignores: List[_GitIgnore], respect_gitignore: bool) -> Iterator[Tuple[str, bool]]:
    if respect_gitignore and os.path.isfile(os.path.join(directory, ".gitignore")):
        loaded = _load_gitignore(directory)
        ignores = ignores + [loaded] if loaded else ignores
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_dir = False
        # The checks by name first: most entries of a tree are bytecode caches and data files.
        if is_dir and (entry.name in DEFAULT_EXCLUDED_DIRS or entry.name.endswith(".egg-info")):
            log.debug("skip %s/ (excluded by default)", os.path.join(directory, entry.name))
            continue
        if not is_dir and not entry.name.endswith(PYTHON_SUFFIXES):
            continue
        path = os.path.join(directory, entry.name) if directory != "." else entry.name
        if matches_exclude(path, exclude):
            log.debug("skip %s%s (exclude)", path, "/" if is_dir else "")
            continue
        if _ignored(path, is_dir, ignores):
            log.debug("skip %s%s (.gitignore)", path, "/" if is_dir else "")
            continue
        if not is_dir:
            yield path, entry.is_symlink()
        elif not _is_virtualenv(path):
            yield from _walk_dir(path, exclude, ignores, respect_gitignore)
        else:
            log.debug("skip %s/ (a virtual environment)", path)
