"""flake8's `# noqa` and `# noqa: CODE[,CODE]` comments, read from comment tokens only (a
`# noqa` inside a string literal suppresses nothing)."""

from __future__ import annotations

import io
import re
import tokenize
from typing import Dict, FrozenSet, Optional

# Patterns compiled on first use (by `re`'s cache): a run reads `# noqa` only in files with findings.
NOQA = r"(?i)#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]*(?:[,\s]+[A-Z]+[0-9]*)*))?"
_SPLIT = r"[,\s]+"

# None means a bare `# noqa`: every code on the line is suppressed.
LineSuppressions = Dict[int, Optional[FrozenSet[str]]]


def suppressions(text: str) -> LineSuppressions:
    found: LineSuppressions = {}
    if "noqa" not in text.lower():
        return found
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type != tokenize.COMMENT:
                continue
            match = re.search(NOQA, token.string)
            if match is None:
                continue
            codes = match.group("codes")
            line = token.start[0]
            if codes is None:
                found[line] = None
            elif found.get(line, frozenset()) is not None:
                found[line] = frozenset(c.upper() for c in re.split(_SPLIT, codes.strip()) if c) | found.get(line, frozenset())
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return found
    return found


def is_suppressed(code: str, line: int, table: LineSuppressions) -> bool:
    if line not in table:
        return False
    codes = table[line]
    return codes is None or any(code.startswith(c) for c in codes)
