"""Syntax newer than the running Python: what a file that this interpreter cannot parse would
need, so that valid code is not called a syntax error.

It runs only on a file the interpreter rejected. It finds the constructs of the grammar that later
Pythons added and this one lacks, sets each aside in a copy of the text that keeps every line
where it was (an f-string becomes an empty string, `type X = ...` becomes `X = ...`, type
parameters become blanks), and parses the copy. If the copy parses, the file needs the newest
version among the constructs found; if not, what is left is a genuine syntax error, at its own line.

The constructs, by the version that added them:

- 3.11: `except*` (PEP 654); starred subscripts and annotations, `X[*Ts]`, `*args: *Ts` (PEP 646);
- 3.12: the `type` statement and type parameters, `def f[T]`, `class C[T]` (PEP 695); f-strings
  that reuse their own quote inside a replacement field, or hold a backslash, a comment or (when
  single-quoted) a line break there (PEP 701);
- 3.13: type parameter defaults, `[T = int]` (PEP 696);
- 3.14: `except A, B:` without parentheses (PEP 758); template strings, `t"..."` (PEP 750).

"""

from __future__ import annotations

import ast
import bisect
import io
import keyword
import sys
import tokenize
from typing import List, Optional, Sequence, Tuple

Version = Tuple[int, int]
RUNNING: Version = sys.version_info[:2]


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class Construct:
    """One use of syntax newer than the running Python: what it is, from which version, where."""

    __slots__ = ("version", "what", "line", "column")

    def __init__(self, version: Version, what: str, line: int, column: int):
        self.version = version
        self.what = what
        self.line = line
        self.column = column  # 1-based, in characters


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class Reading:
    """A file once its newer constructs are set aside: those constructs, and the syntax error that
    is left (None: the file parses under the newest version they need)."""

    __slots__ = ("constructs", "error")

    def __init__(self, constructs: Tuple[Construct, ...], error: Optional[SyntaxError]):
        self.constructs = constructs
        self.error = error

    @property
    def needs(self) -> Optional[Version]:
        return max(c.version for c in self.constructs) if self.constructs else None

    def first_of(self, version: Version) -> Construct:
        return next(c for c in self.constructs if c.version == version)


def read(text: str, running: Version = RUNNING) -> Reading:
    """`text`, which `running` could not parse, with the constructs newer than `running` set aside."""
    found: List[Construct] = []
    edits: List[Tuple[int, int, str]] = []
    lines = _LineStarts(text)
    try:
        for start, end, constructs in _strings(text):
            newer = [(version, what) for version, what in constructs if version > running]
            if newer:
                line, column = lines.position(start)
                found.extend(Construct(version, what, line, column) for version, what in newer)
                edits.append((start, end, "'''" + "\n" * text.count("\n", start, end) + "'''"))
    except _Unreadable:
        pass  # an unterminated or malformed string: a genuine error, which the parse words
    copy = _apply(text, edits)
    statements = _Statements(copy, _LineStarts(copy), running)
    statements.find()
    found.extend(statements.found)
    copy = _apply(copy, statements.edits)
    constructs = tuple(sorted(found, key=lambda c: (c.line, c.column)))
    try:
        ast.parse(copy)
    except SyntaxError as error:
        return Reading(constructs, error)
    except (ValueError, RecursionError, MemoryError) as error:
        return Reading(constructs, SyntaxError(str(error) or type(error).__name__))
    return Reading(constructs, None)


def version_text(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


class _Unreadable(Exception):
    pass


class _LineStarts:
    def __init__(self, text: str):
        self.starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def offset(self, line: int, column: int) -> int:
        """The offset of a tokenize position (1-based line, 0-based character column)."""
        return self.starts[line - 1] + column

    def position(self, offset: int) -> Tuple[int, int]:
        """1-based line and column of an offset."""
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def _apply(text: str, edits: Sequence[Tuple[int, int, str]]) -> str:
    pieces, cursor = [], 0
    for start, end, replacement in sorted(edits):
        if start < cursor:
            continue
        pieces.extend((text[cursor:start], replacement))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


# String literals --------------------------------------------------------------------------------

_PREFIXES = {"", "r", "u", "b", "br", "rb", "f", "fr", "rf", "t", "tr", "rt"}
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
PEP_701 = ((3, 12), "a PEP 701 f-string")
PEP_750 = ((3, 14), "a template string, `t\"...\"`")


def _is_word(c: str) -> bool:
    return c in _WORD or (not c.isascii() and c.isidentifier())


def _strings(text: str):
    """(start, end, constructs) of each string literal outside the others, constructs being the
    (version, description) of the newer syntax it uses."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c in "'\"":
            start = i
            i, constructs = _string(text, i, "")
            yield start, i, constructs
        elif _is_word(c):
            start = i
            while i < n and _is_word(text[i]):
                i += 1
            if i < n and text[i] in "'\"" and text[start:i].lower() in _PREFIXES:
                i, constructs = _string(text, i, text[start:i].lower())
                yield start, i, constructs
        else:
            i += 1


def _string(text: str, i: int, prefix: str) -> Tuple[int, List[Tuple[Version, str]]]:
    """The end of the string literal whose quote starts at `i`, and the newer syntax it uses."""
    quote = text[i : i + 3] if text[i : i + 3] in ("'''", '"""') else text[i]
    body = i + len(quote)
    if "f" not in prefix and "t" not in prefix:
        return _plain_end(text, body, quote), []
    constructs: List[Tuple[Version, str]] = [PEP_750] if "t" in prefix else []
    state = _Interpolated(text, quote, "r" in prefix)
    end = state.literal(body, top=True)
    if state.pep_701 or end != _plain_end(text, body, quote, strict=False):
        constructs.append(PEP_701)
    return end, constructs + state.nested


def _plain_end(text: str, i: int, quote: str, strict: bool = True) -> int:
    """The end of a string whose body starts at `i`, read as before PEP 701: up to the first
    closing quote that no backslash escapes. Not strict: -1 where it does not end."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if text.startswith(quote, i):
            return i + len(quote)
        if c == "\n" and len(quote) == 1:
            break
        i += 1
    if strict:
        raise _Unreadable
    return -1


class _Interpolated:
    """Reads an f- or t-string as Python 3.12 does, noting where Python 3.11 would not."""

    def __init__(self, text: str, quote: str, raw: bool):
        self.text, self.quote, self.raw = text, quote, raw
        self.pep_701 = False
        self.level = 0  # replacement fields open: one, or two where a format spec holds one
        self.nested: List[Tuple[Version, str]] = []

    def literal(self, i: int, top: bool) -> int:
        """Read literal text from `i`: to the closing quote (the end returned) if `top`, else to the
        `}` that ends a format spec (its offset returned)."""
        text, n = self.text, len(self.text)
        while i < n:
            c = text[i]
            if c == "\\":
                if not self.raw and text.startswith("N{", i + 1):
                    close = text.find("}", i)
                    if close < 0:
                        raise _Unreadable
                    i = close + 1
                else:
                    i += 1 if i + 1 < n and text[i + 1] in "{}" else 2
                continue
            if text.startswith(self.quote, i):
                if not top:
                    raise _Unreadable
                return i + len(self.quote)
            if c == "\n" and len(self.quote) == 1:
                raise _Unreadable
            if c == "{":
                if top and text.startswith("{{", i):
                    i += 2
                    continue
                i = self.field(i + 1)
                continue
            if c == "}":
                if not top:
                    return i
                if text.startswith("}}", i):
                    i += 2
                    continue
                raise _Unreadable
            i += 1
        raise _Unreadable

    def field(self, i: int) -> int:
        """Read a replacement field whose expression starts at `i`; the offset after its `}`."""
        self.level += 1
        if self.level > 2:
            self.pep_701 = True  # before 3.12, a format spec's fields hold no fields of their own
        try:
            return self._field(i)
        finally:
            self.level -= 1

    def _field(self, i: int) -> int:
        text, n = self.text, len(self.text)
        depth = 0
        while i < n:
            c = text[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    if c != "}":
                        raise _Unreadable
                    return i + 1
                depth -= 1
            elif c == "#":
                self.pep_701 = True
                end = text.find("\n", i)
                i = n if end < 0 else end
                continue
            elif c == "\\":
                self.pep_701 = True
            elif c == "\n" and len(self.quote) == 1:
                self.pep_701 = True
            elif c in "'\"" or _is_word(c):
                start = i
                while i < n and _is_word(text[i]):
                    i += 1
                if i < n and text[i] in "'\"" and text[start:i].lower() in _PREFIXES:
                    if len(self.quote) == 1 and text[i] == self.quote:
                        self.pep_701 = True  # the enclosing quote reused
                    opening = i
                    i, constructs = _string(text, i, text[start:i].lower())
                    self.nested.extend(constructs)
                    if "\\" in text[opening:i]:
                        self.pep_701 = True  # before 3.12, not even in a string of the expression
                continue
            elif depth == 0 and c == "!" and not text.startswith("!=", i):
                i += 1
                while i < n and _is_word(text[i]):
                    i += 1
                if i < n and text[i] not in ":}":
                    self.pep_701 = True  # `{x!r }`: before 3.12, the field ends right after the conversion
                continue
            elif depth == 0 and c == ":":
                return self.literal(i + 1, top=False) + 1
            i += 1
        raise _Unreadable


# Statements -------------------------------------------------------------------------------------

_STATEMENT_START = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL, tokenize.ENCODING}


def _ends_operand(tokens: Sequence[tokenize.TokenInfo], index: int) -> bool:
    """Whether a `[` after `tokens[index]` subscripts (`x[`, `f()[`, `"s"[`) rather than opens a
    list or a pattern (`case [*rest]:`, after a soft keyword that starts its statement)."""
    token = tokens[index]
    if token.type == tokenize.NAME:
        if token.string in getattr(keyword, "softkwlist", ()) and _Statements._statement_start(tokens, index):
            return False
        return not keyword.iskeyword(token.string) or token.string in ("None", "True", "False")
    return token.type in (tokenize.STRING, tokenize.NUMBER) or token.string in (")", "]")


class _Statements:
    """The newer statement forms, found in the tokens of a text whose strings 3.11 can read."""

    def __init__(self, text: str, lines: _LineStarts, running: Version):
        self.text, self.lines, self.running = text, lines, running
        self.found: List[Construct] = []
        self.edits: List[Tuple[int, int, str]] = []

    def find(self) -> None:
        tokens: List[tokenize.TokenInfo] = []
        try:  # the tokens up to a genuine error, if there is one: the constructs before it count
            tokens.extend(t for t in tokenize.generate_tokens(io.StringIO(self.text).readline) if t.type != tokenize.COMMENT)
        except (tokenize.TokenError, SyntaxError):
            pass
        subscripts: List[bool] = []  # for each open bracket: whether it is a subscript's
        for index, token in enumerate(tokens):
            previous = tokens[index - 1] if index else None
            if token.string in ("(", "[", "{"):
                subscripts.append(token.string == "[" and previous is not None and _ends_operand(tokens, index - 1))
            elif token.string in (")", "]", "}"):
                if subscripts:
                    subscripts.pop()
            elif token.string == "*" and previous is not None:
                in_subscript = bool(subscripts) and subscripts[-1] and previous.string in ("[", ",")
                if (in_subscript or previous.string == ":") and self._add((3, 11), "a starred subscript or annotation, `X[*Ts]`", token):
                    self._blank(token.start, token.end)
            if token.type != tokenize.NAME:
                continue
            following = tokens[index + 1 : index + 3]
            if token.string == "type" and self._statement_start(tokens, index) and len(following) == 2:
                name, after = following
                if name.type == tokenize.NAME and not keyword.iskeyword(name.string) and after.string in ("=", "["):
                    if self._add((3, 12), "a `type` statement", token):
                        start = self.lines.offset(*token.start)
                        self.edits.append((start, start + 4, "0;  "))  # `type X = ...` -> `0;  X = ...`
                    if after.string == "[":
                        self._type_parameters(tokens, index + 2)
            elif token.string in ("def", "class") and len(following) == 2:
                if following[0].type == tokenize.NAME and following[1].string == "[":
                    self._type_parameters(tokens, index + 2)
            elif token.string == "except" and self._statement_start(tokens, index):
                self._except(tokens, index)

    @staticmethod
    def _statement_start(tokens: Sequence[tokenize.TokenInfo], index: int) -> bool:
        previous = tokens[index - 1] if index else None
        return previous is None or previous.type in _STATEMENT_START or previous.string in (";", ":")

    def _add(self, version: Version, what: str, token: tokenize.TokenInfo) -> bool:
        if version <= self.running:
            return False
        self.found.append(Construct(version, what, token.start[0], token.start[1] + 1))
        return True

    def _blank(self, start: Tuple[int, int], end: Tuple[int, int]) -> None:
        """Blank the text between two token positions, keeping its lines (a break becomes a
        continuation, so that a bracket's lines stay lines of the same statement)."""
        first, last = self.lines.offset(*start), self.lines.offset(*end)
        span = self.text[first:last]
        self.edits.append((first, last, "".join(" \\\n" if c == "\n" else " " for c in span)))

    def _closing(self, tokens: Sequence[tokenize.TokenInfo], index: int) -> Optional[int]:
        depth = 0
        for later in range(index, len(tokens)):
            if tokens[later].string in ("(", "[", "{"):
                depth += 1
            elif tokens[later].string in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    return later
        return None

    def _type_parameters(self, tokens: Sequence[tokenize.TokenInfo], opening: int) -> None:
        closing = self._closing(tokens, opening)
        if closing is None:
            return
        depth, default = 0, False
        for token in tokens[opening + 1 : closing]:
            depth += token.string in ("(", "[", "{")
            depth -= token.string in (")", "]", "}")
            default = default or (depth == 0 and token.string == "=")
        added = self._add((3, 12), "type parameters, `def f[T]`", tokens[opening])
        if default:
            added = self._add((3, 13), "a type parameter default, `[T = int]`", tokens[opening]) or added
        if added:
            self._blank(tokens[opening].start, tokens[closing].end)

    def _except(self, tokens: Sequence[tokenize.TokenInfo], index: int) -> None:
        first = index + 1
        if first < len(tokens) and tokens[first].string == "*":
            if self._add((3, 11), "`except*`", tokens[index]):
                self._blank(tokens[first].start, tokens[first].end)
            first += 1
        depth, comma, names = 0, False, False
        end = first
        while end < len(tokens) and not (depth == 0 and tokens[end].string == ":"):
            depth += tokens[end].string in ("(", "[", "{")
            depth -= tokens[end].string in (")", "]", "}")
            comma = comma or (depth == 0 and tokens[end].string == ",")
            names = names or tokens[end].string == "as"
            end += 1
        if comma and not names and end < len(tokens) and self._add((3, 14), "`except A, B:` without parentheses", tokens[index]):
            start, stop = self.lines.offset(*tokens[first].start), self.lines.offset(*tokens[end].start)
            self.edits.append((start, stop, "(" + self.text[start:stop] + ")"))
