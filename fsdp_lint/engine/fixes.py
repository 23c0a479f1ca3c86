"""`--fix` and `--diff`: apply the `Fix`es that rules attach to their findings.

A rule labels each fix safe or unsafe (`fsdp_lint.violation.Fix`, ruff's applicability): a run
applies the safe ones, and the unsafe ones only with `--unsafe-fixes`. Then a fix is applied only
when the result can be checked: the fixes of a file must not overlap (a fix whose edits overlap an
earlier fix's waits for the next run), the fixed text must still parse, and linting the project
again with the fixed text must show the fixed findings gone and nothing new in that file. A file
that fails any of these keeps its original text. Edits replace character ranges, so everything
outside them (formatting, comments, line endings, encoding) is kept byte for byte.
"""

from __future__ import annotations

import ast
import difflib
import io
import os
import re
import tokenize
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from fsdp_lint.engine.lint import LintOptions, LintResult, lint_sources
from fsdp_lint.engine.files import discover, read_bytes
from fsdp_lint.engine.source import decode
from fsdp_lint.violation import Edit, Fix, Violation

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class FileFix:
    """The new text of one file and the findings it removes."""

    path: str
    original: str
    fixed: str
    violations: Tuple[Violation, ...]

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.original.splitlines(keepends=True), self.fixed.splitlines(keepends=True),
                fromfile=f"a/{self.path}", tofile=f"b/{self.path}",
            )
        )


@dataclass
class FixRun:
    """What `--fix`/`--diff` found: the applicable fixes, the findings left, the fixes refused,
    and the findings whose unsafe fix this run leaves out (no `--unsafe-fixes`)."""

    fixes: List[FileFix] = field(default_factory=list)
    remaining: LintResult = field(default_factory=LintResult)
    refused: List[str] = field(default_factory=list)
    hidden: List[Violation] = field(default_factory=list)

    @property
    def fixed(self) -> List[Violation]:
        return [v for fix in self.fixes for v in fix.violations]


def physical_lines(text: str) -> List[str]:
    """The lines of `text` as tokenize numbers them, each with its line ending (str.splitlines
    would also split at form feeds and other separators that do not end a Python line)."""
    return _LINE.findall(text)


def apply_edits(text: str, edits: Sequence[Edit]) -> Tuple[str, List[Edit]]:
    """Apply the non-overlapping edits (1-based lines, 1-based character columns); return the new
    text and the edits applied. An edit that overlaps an earlier one is left out."""
    fixed, applied = apply_fixes(text, [Fix.safe(edit) for edit in edits])
    return fixed, [fix.edits[0] for fix in applied]


def apply_fixes(text: str, fixes: Sequence[Fix]) -> Tuple[str, List[Fix]]:
    """Apply the fixes whose edits overlap no earlier fix's, each whole or not at all (in the
    order of where they start); return the new text and the fixes applied."""
    starts = [0]
    for match in _LINE.finditer(text):
        starts.append(match.end())

    def offset(line: int, column: int) -> Optional[int]:
        if not 1 <= line < len(starts) + (1 if column == 1 else 0):
            return None
        position = starts[line - 1] + column - 1
        return position if position <= len(text) else None

    located = []
    for fix in fixes:
        spans = [(offset(e.line, e.column), offset(e.end_line, e.end_column), e) for e in fix.edits]
        if fix.edits and all(start is not None and end is not None and start <= end for start, end, _ in spans):
            located.append((sorted(spans, key=lambda span: (span[0], span[1])), fix))
    taken: List[Tuple[int, int, Edit]] = []
    applied: List[Fix] = []
    for spans, fix in sorted(located, key=lambda item: (item[0][0][0], item[0][0][1])):
        mine = [(start, end) for start, end, _ in spans]
        overlaps_taken = any((s < e2 and s2 < e) or s == s2 for s, e in mine for s2, e2, _ in taken)
        overlaps_itself = any(a[1] > b[0] for a, b in zip(mine, mine[1:]))
        if overlaps_taken or overlaps_itself:
            continue
        taken.extend(spans)  # type: ignore[arg-type]
        applied.append(fix)
    pieces, cursor = [], 0
    for start, end, edit in sorted(taken, key=lambda span: (span[0], span[1])):
        pieces.append(text[cursor:start])
        pieces.append(edit.text)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces), applied


def read_sources(paths: Sequence[str], options: LintOptions) -> Tuple[Dict[str, str], List[Violation]]:
    """The decoded text of every file a run would lint, and an FSD001 for each that cannot be read."""
    texts: Dict[str, str] = {}
    failures: List[Violation] = []
    for found in discover(paths, options.exclude, options.respect_gitignore):
        data = read_bytes(found.path, found.path)
        text = decode(data, found.path) if isinstance(data, bytes) else data
        if isinstance(text, str):
            texts[found.path] = text
        elif options.selection.enabled(text.code, text.path):
            failures.append(text)
    return texts, failures


def _package_dir(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py"))


def plan(paths: Sequence[str], options: LintOptions, unsafe_fixes: bool = False) -> FixRun:
    """Compute the fixes of a run without writing anything."""
    texts, failures = read_sources(paths, options)
    return plan_sources(texts, options, unsafe_fixes, failures, _package_dir)


def plan_sources(
    texts: Mapping[str, str], options: LintOptions, unsafe_fixes: bool = False, failures: Sequence[Violation] = (),
    is_package_dir: Optional[Callable[[str], bool]] = None,
) -> FixRun:
    """The fixes of decoded sources keyed by path (`lint_sources`); `failures` are findings about
    files that could not be read, kept among those left."""
    before = lint_sources(texts, options, is_package_dir=is_package_dir)
    before.violations = sorted(list(before.violations) + list(failures))
    run = FixRun(remaining=before, hidden=[v for v in before.violations if v.fix is not None and not v.fix.applies(unsafe_fixes)])
    candidates: Dict[str, FileFix] = {}
    for path, found in _fixable_by_file(before.violations, unsafe_fixes).items():
        fixed, applied = apply_fixes(texts[path], [v.fix for v in found])  # type: ignore[misc]
        kept = tuple(v for v in found if v.fix in applied)
        try:
            ast.parse(fixed)
        except (SyntaxError, ValueError) as error:
            run.refused.append(f"{path}: fixes not applied: the fixed file would not parse ({error})")
            continue
        candidates[path] = FileFix(path, texts[path], fixed, kept)
    while candidates:
        after = lint_sources({**texts, **{p: f.fixed for p, f in candidates.items()}}, options, is_package_dir=is_package_dir)
        unproved = [fix for fix in candidates.values() if not _proved(fix, before.violations, after.violations)]
        if not unproved:
            after.violations = sorted(list(after.violations) + list(failures))
            run.fixes, run.remaining = sorted(candidates.values(), key=lambda f: f.path), after
            break
        for fix in unproved:
            codes = ", ".join(sorted({v.code for v in fix.violations}))
            run.refused.append(f"{fix.path}: fixes for {codes} not applied: linting the fixed file did not prove them")
            del candidates[fix.path]
    return run


def _fixable_by_file(violations: Sequence[Violation], unsafe_fixes: bool) -> Dict[str, List[Violation]]:
    grouped: Dict[str, List[Violation]] = {}
    for violation in violations:
        if violation.fix is not None and violation.fix.applies(unsafe_fixes):
            grouped.setdefault(violation.path, []).append(violation)
    return grouped


def _proved(fix: FileFix, before: Sequence[Violation], after: Sequence[Violation]) -> bool:
    """Every fixed finding is gone from the file and no code appears more often than before."""
    had = Counter(v.code for v in before if v.path == fix.path)
    has = Counter(v.code for v in after if v.path == fix.path)
    removed = Counter(v.code for v in fix.violations)
    return all(has[code] <= had[code] - removed.get(code, 0) for code in set(had) | set(has))


def write(fix: FileFix) -> None:
    """Write the fixed text back in the file's own encoding, keeping a byte-order mark."""
    with open(fix.path, "rb") as handle:
        data = handle.read()
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    prefix = _BOM if data.startswith(_BOM) else b""
    with open(fix.path, "wb") as handle:
        handle.write(prefix + fix.fixed.encode(encoding))
