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
from typing import Dict, List, Sequence, Set

from fsdp_lint.engine import noqa
from fsdp_lint.violation import Violation

# Physical lines as tokenize numbers them (str.splitlines would also split at form feeds and
# other separators that do not end a Python line).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


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
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, tokenize.TokenError) as error:
        refused.append(f"{path}: cannot add `# noqa`: the file does not read or parse ({type(error).__name__})")
        return 0
    blocked = _lines_that_cannot_end_in_a_comment(tokens)
    comments = {token.start[0]: token for token in tokens if token.type == tokenize.COMMENT}
    lines = _LINE.findall(text)
    count = 0
    for number in sorted(wanted):
        if number in blocked or not 1 <= number <= len(lines):
            refused.append(f"{path}:{number}: cannot add `# noqa: {', '.join(sorted(wanted[number]))}`: no comment can end this line")
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        codes = ", ".join(sorted(wanted[number]))
        comment = comments.get(number)
        match = noqa.NOQA.search(comment.string) if comment is not None else None
        if comment is not None and match is not None and match.group("codes"):
            at = comment.start[1] + match.end("codes")
            body = f"{body[:at]}, {codes}{body[at:]}"
        else:
            body = f"{body.rstrip()}  # noqa: {codes}"
        lines[number - 1] = body + ending
        count += 1
    if not count:
        return 0
    fixed = "".join(lines)
    table = noqa.suppressions(fixed)
    suppressed = all(noqa.is_suppressed(code, number, table) for number, codes in wanted.items() if number not in blocked for code in codes)
    try:
        same = ast.dump(ast.parse(fixed)) == before
    except SyntaxError:
        same = False
    if not (same and suppressed):
        refused.append(f"{path}: `# noqa` comments would change the code or not suppress the findings; file left as it was")
        return 0
    with open(path, "wb") as handle:
        handle.write(fixed.encode(encoding))
    return count


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
