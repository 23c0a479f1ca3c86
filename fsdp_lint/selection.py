"""Which codes a run reports: `select`/`ignore` by code or prefix, the more specific entry winning
(`--select FSD201 --ignore FSD2` keeps FSD201), as in ruff; and `per-file-ignores`, which silence
codes in the files a glob matches (tests, generated code) without a `# noqa` on every line."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple


def _best(code: str, prefixes: Sequence[str]) -> int:
    return max((len(p) for p in prefixes if code.startswith(p)), default=-1)


@dataclass(frozen=True)
class PerFileIgnore:
    """Codes ignored in the files that `pattern` matches.

    The glob is matched, as flake8's and ruff's are, against the path relative to `base` (the
    directory of the config file that declared it) and, when it has no `/`, against the file name;
    `*` crosses directories, and `dir/` means everything under `dir`. A leading `!` applies the
    codes to the files that do *not* match.
    """

    pattern: str
    codes: Tuple[str, ...]
    base: str = "."

    def applies_to(self, path: str) -> bool:
        negated = self.pattern.startswith("!")
        glob = self.pattern[1:] if negated else self.pattern
        if glob.endswith("/"):
            glob += "*"
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(self.base)).replace(os.sep, "/")
        matched = fnmatch.fnmatch(relative, glob) or ("/" not in glob and fnmatch.fnmatch(os.path.basename(path), glob))
        return matched != negated


@dataclass(frozen=True)
class Selection:
    select: Tuple[str, ...] = ("FSD",)
    ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[PerFileIgnore, ...] = ()

    def enabled(self, code: str, path: Optional[str] = None) -> bool:
        """Whether `code` is reported at all, or, given a `path`, reported in that file.

        A per-file ignore wins over any select, as in ruff: `"tests/*" = ["FSD"]` silences tests
        even under `--select FSD201`.
        """
        chosen = _best(code, self.select)
        if chosen < 0 or chosen <= _best(code, self.ignore):
            return False
        if path is None or not self.per_file_ignores:
            return True
        return not any(code.startswith(c) for entry in self.per_file_ignores if entry.applies_to(path) for c in entry.codes)
