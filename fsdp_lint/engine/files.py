"""Which files a run lints, and their bytes: `.py`/`.pyi` files under the given paths, minus VCS,
virtualenv and build directories, `.gitignore`d paths and `--exclude` globs. Paths named on the
command line are always linted, as in ruff and flake8.

A run answered from the cache does nothing else, so this module imports neither astroid nor the
analysis."""

from __future__ import annotations

import fnmatch
import logging
import os
import re
import stat
import subprocess
from typing import FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple, Union

from fsdp_lint.tool_codes import UnanalysableFile
from fsdp_lint.violation import Violation

DEFAULT_EXCLUDED_DIRS = frozenset(
    {".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", "__pycache__",
     "node_modules", ".eggs", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".fsdp_lint_cache",
     "site-packages", "__pypackages__", ".direnv"}
)
# What packaging tools write (`python -m build`, setuptools): skipped by name unless the directory
# is a package of the project (`src/l3m/helpers/dist/__init__.py`), which those tools never write
# (their packages lie below it: `build/lib/pkg/__init__.py`).
PACKAGING_OUTPUT_DIRS = frozenset({"build", "dist"})
PYTHON_SUFFIXES = (".py", ".pyi")

log = logging.getLogger("fsdp_lint")  # `fsdp-lint -v`: what discovery skipped and why


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class Discovered:
    __slots__ = ("path", "explicit")

    def __init__(self, path: str, explicit: bool):
        self.path = path  # as the user will read it: relative to the command-line argument's form
        self.explicit = explicit


class _GitIgnore:
    """The subset of gitignore semantics that matters for skipping paths: globs, `**`, anchored
    patterns, directory-only patterns and `!` negation, scoped to the directory of the file.

    Every path of the tree is matched against it, and most match no pattern, so the patterns are
    compiled into one `_AnyOf` for any path and one for what only directories match: a run
    compiles these and no pattern on its own (compiling each pattern too was half the discovery
    of a tree). Only a file with `!` rules needs each pattern, in order, to decide a path they
    match: the last rule that matches decides."""

    def __init__(self, base: str, lines: Sequence[str]):
        self.base = base
        self.rules: List[Tuple[str, bool, bool]] = []  # (regex, negated, directories only), in the file's order
        by_name: Tuple[List[str], List[str]] = ([], [])  # for any path, for directories only
        by_path: Tuple[List[str], List[str]] = ([], [])
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
            pattern = _glob_to_regex(line.lstrip("/"))
            if anchored:
                by_path[dir_only].append(pattern)
            elif "**" in line:  # `.*`: it can match across a `/`
                by_path[dir_only].append(_ANY_DIRECTORY + pattern)
            else:  # no `/` in it, nor anything that matches one: it matches a path's last name
                by_name[dir_only].append(pattern)
            self.rules.append(((pattern if anchored else _ANY_DIRECTORY + pattern) + r"\Z", negate, dir_only))
        self.negates = any(negate for _, negate, _ in self.rules)
        self.any_path, self.any_directory = (_AnyOf(by_name[kind], by_path[kind]) for kind in (False, True))
        self.prefix = self.base.rstrip(os.sep) + os.sep

    def ignored(self, path: str, is_dir: bool) -> Optional[bool]:
        if not self.rules:
            return None
        relative = path[len(self.prefix):] if path.startswith(self.prefix) else os.path.relpath(path, self.base)
        relative = relative.replace(os.sep, "/")
        name = relative.rsplit("/", 1)[-1]
        if not (self.any_path.matches(relative, name) or (is_dir and self.any_directory.matches(relative, name))):
            return None
        if not self.negates:
            return True
        verdict = None
        for pattern, negate, dir_only in self.rules:
            if dir_only and not is_dir:
                continue
            if re.match(pattern, relative):
                verdict = not negate
        return verdict


_ANY_DIRECTORY = r"(?:.*/)?"  # before a pattern with no `/`: it matches at any depth


class _AnyOf:
    """Whether one of some patterns matches a path, in one regex match or two: the patterns that
    match a path's last name are tried on it alone, once, rather than after each `/` of the path
    (ten times faster on a tree's paths), the others on the whole path."""

    def __init__(self, name_patterns: Sequence[str], path_patterns: Sequence[str]):
        self._name = re.compile("(?:" + "|".join(name_patterns) + r")\Z") if name_patterns else None
        self._path = re.compile("(?:" + "|".join(path_patterns) + r")\Z") if path_patterns else None

    def matches(self, relative: str, name: str) -> bool:
        return bool((self._name is not None and self._name.match(name)) or (self._path is not None and self._path.match(relative)))


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
    yield from _walk_dir(top, exclude, ignores, respect_gitignore, _Tracked(top))


class _Tracked:
    """What git tracks in the repository around a walk: a path a `.gitignore` matches is still
    part of the project where git tracks it (or, for a directory, something in it), as git itself
    treats it (a package committed under a `dist/` that `.gitignore` names for packaging output).
    Asked only of ignored paths, so `git ls-files` runs once, and only in trees that ignore some;
    outside a repository, or without git, patterns alone decide."""

    def __init__(self, top: str):
        self._top = os.path.abspath(top)
        self._paths: Optional[FrozenSet[str]] = None

    def __call__(self, absolute: str, is_dir: bool) -> bool:
        if self._paths is None:
            self._paths = _tracked_paths(self._top)
        return (absolute + os.sep if is_dir else absolute) in self._paths


def _tracked_paths(top: str) -> FrozenSet[str]:
    """The absolute paths of the files git tracks in the repository holding `top`, and of every
    directory above one (with a trailing separator)."""
    root = top
    while not os.path.exists(os.path.join(root, ".git")):
        parent = os.path.dirname(root)
        if parent == root:
            return frozenset()
        root = parent
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    found: Set[str] = set()
    for name in os.fsdecode(listed).split("\0"):
        if not name:
            continue
        path = os.path.join(root, os.path.normpath(name))
        found.add(path)
        directory = os.path.dirname(path)
        while len(directory) > len(root) and directory + os.sep not in found:
            found.add(directory + os.sep)
            directory = os.path.dirname(directory)
    return frozenset(found)


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


def _ignored(absolute: str, is_dir: bool, ignores: Sequence[_GitIgnore]) -> bool:
    verdict = False
    for ignore in ignores:
        if absolute.startswith(ignore.base + os.sep):
            result = ignore.ignored(absolute, is_dir)
            if result is not None:
                verdict = result
    return verdict


def _walk_dir(
    directory: str, exclude: Sequence[str], ignores: List[_GitIgnore], respect_gitignore: bool, tracked: _Tracked,
    ignored_above: bool = False,
) -> Iterator[Tuple[str, bool]]:
    """`ignored_above`: a `.gitignore` matches the directory (git tracks something in it): what
    it holds is ignored too, but for what git tracks."""
    if respect_gitignore and os.path.isfile(os.path.join(directory, ".gitignore")):
        loaded = _load_gitignore(directory)
        ignores = ignores + [loaded] if loaded else ignores
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    absolute = os.path.abspath(directory) if ignores else ""  # once a directory, not once a file
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_dir = False
        # The checks by name first: most entries of a tree are bytecode caches and data files.
        if is_dir and (
            entry.name in DEFAULT_EXCLUDED_DIRS or entry.name.endswith(".egg-info")
            or entry.name in PACKAGING_OUTPUT_DIRS and not os.path.isfile(os.path.join(entry.path, "__init__.py"))
        ):
            log.debug("skip %s/ (excluded by default)", os.path.join(directory, entry.name))
            continue
        if not is_dir and not entry.name.endswith(PYTHON_SUFFIXES):
            continue
        path = os.path.join(directory, entry.name) if directory != "." else entry.name
        if matches_exclude(path, exclude):
            log.debug("skip %s%s (exclude)", path, "/" if is_dir else "")
            continue
        ignored = bool(ignores) and (ignored_above or _ignored(os.path.join(absolute, entry.name), is_dir, ignores))
        if ignored:
            if not tracked(os.path.join(absolute, entry.name), is_dir):
                log.debug("skip %s%s (.gitignore)", path, "/" if is_dir else "")
                continue
            log.debug("lint %s%s (.gitignore matches it, but git tracks it)", path, "/" if is_dir else "")
        if not is_dir:
            yield path, entry.is_symlink()
        elif not _is_virtualenv(path):
            yield from _walk_dir(path, exclude, ignores, respect_gitignore, tracked, ignored)
        else:
            log.debug("skip %s/ (a virtual environment)", path)


def unanalysable(path: str, reason: str, line: int = 1, column: int = 1) -> Violation:
    return Violation(
        path, max(line, 1), max(column, 1), UnanalysableFile.code, UnanalysableFile.name,
        f"cannot analyse this file: {reason}",
    )


def read_bytes(path: str, display: str) -> Union[bytes, Violation]:
    try:
        return _read(path)
    except FileNotFoundError:
        reason = "broken symbolic link" if os.path.islink(path) else "file not found"
        return unanalysable(display, reason)
    except IsADirectoryError:
        return unanalysable(display, "is a directory")
    except _NotARegularFile:
        return unanalysable(display, "not a regular file (a FIFO, socket or device)")
    except OSError as error:
        return unanalysable(display, f"cannot read: {error.strerror or error}")


class _NotARegularFile(OSError):
    pass


def _read(path: str) -> bytes:
    """The file's bytes in one system call where its size allows: a cold run reads every file of
    the tree, and `open()`'s buffered reader costs more than the read itself on small files.
    Opened without blocking, so that a FIFO named `x.py` is reported instead of waiting forever
    for a writer."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(status.st_mode):
            raise _NotARegularFile(path)
        size = status.st_size
        data = os.read(descriptor, size + 1)
        if len(data) == size:  # all of it: asked one byte more, a regular file stopped at its end
            return data
        chunks = [data]  # it changed since, its size says nothing (/proc), or the read was capped
        while True:
            chunk = os.read(descriptor, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(descriptor)
