r"""`--add-noqa`: a `# noqa: CODE` comment on the line of every current finding, so that a large
code base can adopt the linter today and fix its findings over time (ruff's `--add-noqa`).

A line that already has a `# noqa: ...` comment gets the new codes added to it; a line with another
comment gets the directive after it. A line where a comment cannot go (inside a multi-line string,
after a `\` continuation) is left alone and named. Each file is written only if its syntax tree is
unchanged and every finding is now suppressed (read back with the same `# noqa` reader the linter
uses); otherwise it keeps its bytes. Everything else in the file (line endings, encoding, a BOM)
is kept as it was.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import defaultdict
from dataclasses import dataclass, field
from typing import AbstractSet, Dict, List, Mapping, Sequence, Set

from fsdp_lint.engine import noqa
from fsdp_lint.engine.fixes import physical_lines
from fsdp_lint.violation import Violation


@dataclass
class Added:
    directives: int = 0  # lines that got a directive or new codes in one
    files: int = 0
    refused: List[str] = field(default_factory=list)


def add_noqa(violations: Sequence[Violation]) -> Added:
    by_file: Dict[str, Dict[int, Set[str]]] = defaultdict(lambda: defaultdict(set))
    for v in violations:
        by_file[v.path][v.line].add(v.code)
    added = Added()
    for path, lines in sorted(by_file.items()):
        count = _add_to_file(path, lines, added.refused)
        if count:
            added.directives += count
            added.files += 1
    return added


def _add_to_file(path: str, wanted: Dict[int, Set[str]], refused: List[str]) -> int:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
        before = ast.dump(ast.parse(text))
        changed = with_directives(text, wanted)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, tokenize.TokenError) as error:
        refused.append(f"{path}: cannot add `# noqa`: the file does not read or parse ({type(error).__name__})")
        return 0
    for number in sorted(set(wanted) - set(changed)):
        refused.append(f"{path}:{number}: cannot add `# noqa: {', '.join(sorted(wanted[number]))}`: no comment can end this line")
    if not changed:
        return 0
    lines = physical_lines(text)
    for number, body in changed.items():
        line = lines[number - 1]
        lines[number - 1] = body + line[len(line.rstrip("\r\n")):]
    fixed = "".join(lines)
    table = noqa.suppressions(fixed)
    suppressed = all(noqa.is_suppressed(code, number, table) for number in changed for code in wanted[number])
    try:
        same = ast.dump(ast.parse(fixed)) == before
    except SyntaxError:
        same = False
    if not (same and suppressed):
        refused.append(f"{path}: `# noqa` comments would change the code or not suppress the findings; file left as it was")
        return 0
    with open(path, "wb") as handle:
        handle.write(fixed.encode(encoding))
    return len(changed)


def with_directives(text: str, wanted: Mapping[int, AbstractSet[str]]) -> Dict[int, str]:
    """Each line of `text` (1-based) that can take `# noqa: CODES` for the codes `wanted` names,
    as it reads with them, without its line ending: the codes go into the line's `# noqa:` comment
    where it has one, else a directive goes at its end. A line no comment can end is left out.
    `--add-noqa` and the language server's "Add `# noqa`" action both edit lines here. Raises
    tokenize.TokenError or SyntaxError where `text` does not tokenize."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    blocked = _lines_that_cannot_end_in_a_comment(tokens)
    comments = {token.start[0]: token for token in tokens if token.type == tokenize.COMMENT}
    lines = physical_lines(text)
    changed: Dict[int, str] = {}
    for number in sorted(wanted):
        if number in blocked or not 1 <= number <= len(lines):
            continue
        body = lines[number - 1].rstrip("\r\n")
        codes = ", ".join(sorted(wanted[number]))
        comment = comments.get(number)
        match = re.search(noqa.NOQA, comment.string) if comment is not None else None
        if comment is not None and match is not None and match.group("codes"):
            at = comment.start[1] + match.end("codes")
            changed[number] = f"{body[:at]}, {codes}{body[at:]}"
        else:
            changed[number] = f"{body.rstrip()}  # noqa: {codes}"
    return changed


def _lines_that_cannot_end_in_a_comment(tokens: Sequence[tokenize.TokenInfo]) -> Set[int]:
    r"""Lines that end inside a token (a multi-line string or f-string) or in a `\` continuation
    (a token followed, on a later line, by the next one with no NEWLINE or NL between): a `#`
    there would be text, or a syntax error."""
    blocked: Set[int] = set()
    line_ends = (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)
    for token, following in zip(tokens, tokens[1:]):
        blocked.update(range(token.start[0], token.end[0]))
        if token.type not in line_ends and following.start[0] > token.end[0]:
            blocked.add(token.end[0])
    return blocked
