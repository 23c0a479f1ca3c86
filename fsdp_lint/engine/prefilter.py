"""Which files of a tree can hold or reach FSDP2 code, decided from their bytes before anything
is parsed.

Parsing is the expensive step (astroid builds a Python object per node), and FSDP2 code is a small
fraction of any tree, so the engine parses eagerly only the files this scan keeps and leaves the
rest to be parsed on demand when the analysis resolves a name into them.

The scan over-approximates what the cross-module analysis can connect. The analysis reaches another
module only through an import statement and a name: a call of `fully_shard` (under any alias), or
a call of a function or class that a sharding module defines or re-exports. So a file is kept when

- it uses a *sharding name* in code: `fully_shard` itself (not its definition, not `fully_shard.x`,
  not in a comment or a plain string), or a name that an imported kept module exports; and
- a kept file exports the module-level names (`def`, `class`, assignment; in module code at
  any depth, `if`/`try` blocks too) of each top-level definition, with the module code after it
  up to the next one, that uses such a name or a name another such part exports, plus the
  sharding names it re-exports by import. An importer reaches the sharding only through a
  module-level name whose code leads to it: a 3,000-line `utils.py` with one sharding helper does
  not make every importer of its other helpers relevant, nor does a method's name (`__init__`,
  `forward`) of a sharding class make every file that calls one (Megatron-LM's
  `megatron.core.utils` and its model classes made 800 files so, once its namespace package
  resolved).

This closes over the import graph upwards (files that import sharding helpers, and their importers,
name by name). Downwards, helpers that receive a sharded model are parsed on demand by the analysis
as it resolves calls into them, so they need no decision here. Rules that fire without a sharded
model keep the files that mention their `SCAN_NAMES`, where their screen (`Rule.may_fire_in`)
says they could fire.

What each file contributes is found from its bytes alone (`scan_file`, run on every core by the
engine); `relevant_files` then only closes over the import graph.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple

# The names whose use starts a sharding fact; rules that fire on other names add theirs here.
SHARDING_NAMES: FrozenSet[str] = frozenset({"fully_shard"})

# The classes a test of which starts a sharding fact about the file's own objects
# (`isinstance(model, FSDPModule)`: code outside the file sharded it where the test holds): a file
# that imports or uses one is kept, but its importers are not (the fact starts and ends in it).
TESTED_CLASSES: FrozenSet[str] = frozenset({"FSDPModule"})

_FROM = re.compile(rb"from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]*(\([^)]*\)|[^\n]*)")
_PLAIN = re.compile(rb"import[ \t]+([\w.][^\n]*)")
_TOP_LEVEL = re.compile(rb"^(?:async[ \t]+def|def|class)[ \t]+\w+", re.M)
_MODULE_CODE = re.compile(rb"^[^\s#)\]}]", re.M)  # a line that starts a statement at module level
_DEFINED = re.compile(rb"(?:\bdef|\bclass)[ \t]+(\w+)|^(\w+)[ \t]*(?::[^\n=]*)?=(?!=)", re.M)
_NAME_IN_LIST = re.compile(rb"[A-Za-z_]\w*(?:\s+as\s+\w+)?")
_STATEMENT_BEFORE = b" \t\n;:"

# What one file imports from one module: the raw text of the imported names (`from m import
# ...`), or None for the module itself (`import m`), with the name it is bound to if aliased.
Imported = Tuple[Optional[bytes], Optional[str]]


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class FileScan:
    """What the closure needs of one file, found from its bytes alone (so files can be scanned in
    any order, in any process): its imports, the sharding names it re-exports and whether it uses
    one, and whether a rule's `SCAN_NAMES` keep it."""

    __slots__ = ("imports", "reexported", "uses_sharding_name", "mentioned")

    def __init__(self, imports: Tuple[Tuple[str, Imported], ...], reexported: FrozenSet[str], uses_sharding_name: bool, mentioned: bool):
        self.imports = imports
        self.reexported = reexported  # the names it binds by importing a sharding name (`as` aliases too)
        self.uses_sharding_name = uses_sharding_name  # uses `fully_shard`, or a name it binds to it, in code
        self.mentioned = mentioned  # mentions a name of `mentioned_names`, and the screen let it through or it uses a sharding name; or tests one of `TESTED_CLASSES`


def scan_file(
    path: str,
    data: bytes,
    module: str,
    sharding_names: FrozenSet[str] = SHARDING_NAMES,
    mentioned_names: FrozenSet[str] = frozenset(),
    screen: Optional[Callable[[bytes, FrozenSet[str]], bool]] = None,
) -> FileScan:
    """`mentioned_names` (rules' `SCAN_NAMES`: `set_requires_gradient_sync`,
    `torch.distributed.checkpoint`) keep a file that mentions one anywhere, even in a comment or a
    string, or imports it (`from torch.distributed import checkpoint`): for rules that fire on a
    call itself, not on a sharded model, so the file alone decides (they export nothing to their
    importers). `screen(data, names)`, when given, has the last word on such a file, unless the
    file uses a sharding name: it is analysed anyway, and the screen (a stdlib parse and a walk
    per rule) costs as much as parsing it with astroid."""
    imports = tuple(_imports_of(data, module, _is_package(path))) if b"import" in data else ()
    mentions = {name for name in mentioned_names if _mentions(data, name)}
    for name in mentioned_names - mentions:
        package, _, last = name.rpartition(".")
        if package and any(
            imported == package and names is not None and any(n == last for n, _ in pairs(names))
            for imported, (names, _alias) in imports
        ):
            mentions.add(name)
    reexported: FrozenSet[str] = frozenset()
    uses = False
    if any(name.encode() in data for name in sharding_names):
        reexported = frozenset(
            bound for _, (names, _alias) in imports if names is not None
            for imported, bound in pairs(names) if imported in sharding_names
        )
        visible = sharding_names | reexported
        uses = _spells_word(data, visible) and _uses(_code_only(data), _word_pattern(visible), sharding_names)
    kept = bool(mentions) and (uses or screen is None or screen(data, frozenset(mentions)))
    return FileScan(imports, reexported, uses, kept or _tests_class(data, imports))


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class _File:
    __slots__ = ("path", "module", "sources", "scan", "exports", "visible", "sharding", "sharding_names", "marked", "_code", "_parts")

    def __init__(self, path: str, module: str, sources: Mapping[str, bytes], scan: FileScan, sharding_names: FrozenSet[str] = SHARDING_NAMES):
        self.path = path
        self.module = module
        self.sources = sources  # the tree's bytes, read for this file only when its parts are asked for
        self.scan = scan
        self.exports: Set[str] = set()
        self.visible: Set[str] = set()
        self.sharding = False
        self.sharding_names = sharding_names
        self.marked: Set[int] = set()  # the parts of `parts()` that lead to sharding
        self._code: Optional[bytes] = None
        self._parts: Optional[List[Tuple[bytes, FrozenSet[str]]]] = None

    def code(self) -> bytes:
        if self._code is None:
            self._code = _code_only(self.sources[self.path])
        return self._code

    def uses_any(self, names: Iterable[str]) -> bool:
        return _uses(self.code(), _word_pattern(names), self.sharding_names)

    def parts(self) -> List[Tuple[bytes, FrozenSet[str]]]:
        """The code split before each top-level `def` and `class` (strings are blanked, so a
        docstring's unindented line splits nothing), module code going with the part before it,
        with the module-level names each part defines: the definition's own, and what the module
        code after its body (from the next line that starts a statement unindented) defines."""
        if self._parts is None:
            code = self.code()
            starts = [0] + [match.start() for match in _TOP_LEVEL.finditer(code) if match.start()]
            self._parts = []
            for start, end in zip(starts, starts[1:] + [len(code)]):
                part = code[start:end]
                own = _TOP_LEVEL.match(part)
                module_code = _MODULE_CODE.search(part, part.find(b"\n") + 1) if own else None
                defined = _defined(part, 0, len(own.group(0)) if own else len(part))
                if module_code is not None:
                    defined |= _defined(part, module_code.start(), len(part))
                self._parts.append((part, defined))
        return self._parts


def relevant_files(
    sources: Mapping[str, bytes],
    module_names: Mapping[str, str],
    scans: Mapping[str, FileScan],
    sharding_names: FrozenSet[str] = SHARDING_NAMES,
    exporting: Iterable[str] = (),
    registered: Iterable[Tuple[str, str, str, str]] = (),
) -> Set[str]:
    """The paths (keys of `sources`) that can hold or reach FSDP2 code, from each file's `scans`
    entry (`scan_file`, with the same `sharding_names`).

    `exporting` names files known to export sharded objects (the engine learns them from the
    facts): each name they define counts as a sharding name in the files that import it.
    `registered` holds (path, class, registry's path, registry's name): a class a decorator
    stores into the dict that a global or class of another file holds (the engine reads it from
    the decorators' code, `fsdp_lint.analysis.registrations`). Where that class leads to
    sharding, so does the registry: code that builds its classes from it reaches the sharding
    through it, with no import of the class's module (`EngineRegistry.get_engine_cls("fsdp2")`).
    """
    files = {
        path: _File(path, module_names[path], sources, scans[path], sharding_names=sharding_names)
        for path in sources
    }
    index = import_index(scans, sources)
    registering: Dict[str, List[Tuple[str, str, str]]] = {}
    for path, cls, registry_path, registry in registered:
        if path in files and registry_path in files:
            registering.setdefault(path, []).append((cls, registry_path, registry))
    pending: List[str] = list(registering)
    for file in files.values():
        if file.scan.reexported or file.scan.uses_sharding_name:
            file.exports |= file.scan.reexported
            file.visible |= sharding_names | file.exports
            if file.scan.uses_sharding_name:
                _mark_sharding(file, file.visible)
            if file.exports:
                pending.append(file.path)
    for path in exporting:
        if path in files:
            _mark_sharding(files[path], None)
            pending.append(path)
    while pending:
        source = files[pending.pop()]
        for cls, registry_path, registry in registering.get(source.path, ()):
            holder = files[registry_path]
            if cls in source.exports and registry not in holder.exports:
                _mark_defining(holder, registry)
                pending.append(registry_path)
        for importer_path, names in importers(source.module, source.path, index):
            importer = files[importer_path]
            before = len(importer.exports), importer.sharding
            _see_exports(importer, names, source)
            if (len(importer.exports), importer.sharding) != before:
                pending.append(importer_path)
    return {path for path, file in files.items() if file.sharding or file.scan.mentioned}


def _mark_sharding(file: _File, names: Optional[Iterable[str]]) -> None:
    """Keep `file`, which uses `names` (None: whose module objects hold shards, so every part
    leads to them), and export what its parts that lead to sharding define, closing over the
    file: a part that uses a name another exports leads there too."""
    parts = file.parts()
    wanted = None if names is None else set(names)
    while wanted is None or wanted:
        pattern = None if wanted is None else _word_pattern(wanted)
        fresh = [index for index, (part, _) in enumerate(parts) if index not in file.marked
                 and (pattern is None or _uses(part, pattern, file.sharding_names))]
        if not fresh:
            return
        file.sharding = True
        file.marked.update(fresh)
        defined = set().union(*(parts[index][1] for index in fresh))
        wanted = defined - file.exports
        file.exports |= defined


def _mark_defining(file: _File, name: str) -> None:
    """Keep `file`, whose global or class `name` leads to sharding, and export what the parts that
    define it define, closing over the file as `_mark_sharding` does."""
    parts = file.parts()
    fresh = [index for index, (_, defined) in enumerate(parts) if name in defined and index not in file.marked]
    file.sharding = True
    file.marked.update(fresh)
    defined = set().union({name}, *(parts[index][1] for index in fresh))
    new = defined - file.exports
    file.exports |= defined
    _mark_sharding(file, new)


def _defined(code: bytes, start: int, end: int) -> FrozenSet[str]:
    """The names `def`, `class` and unindented assignments bind in `code[start:end]`."""
    return frozenset((match.group(1) or match.group(2)).decode() for match in _DEFINED.finditer(code, start, end))


def _see_exports(importer: _File, imported: Imported, source: _File) -> None:
    """What one import of `source` makes visible in `importer`, and what it re-exports.

    A module imported whole is used through its attributes (`x.f()`), so only those uses count;
    imported under a name (`import m as x`, `from package import m`) it is re-exported under that
    name, which is how the analysis follows it (`from importer import x; x.f()`).
    """
    names, alias = imported
    seen: Set[str] = set()
    if names is None:
        # The module's names are reached as its attributes: `alias.f`, `pkg.mod.f`.
        seen = {f"{alias or source.module}.{name}" for name in source.exports}
        if alias and source.exports:
            importer.exports.add(alias)
    else:
        for imported, bound in pairs(names):
            if imported == "*":
                seen |= source.exports
                importer.exports |= source.exports
            elif imported in source.exports:
                seen.add(bound)
                importer.exports.add(bound)
    new = seen - importer.visible
    importer.visible |= new
    if new and importer.uses_any(new):
        _mark_sharding(importer, new)


def _imports_of(data: bytes, module: str, is_package: bool) -> Iterable[Tuple[str, Imported]]:
    """(absolute module name, imported names) for every import statement of `data`.

    Found with two regular expressions that start with a literal (so the scan runs at C speed),
    kept where the keyword starts a statement. Text that only looks like an import (in a
    docstring) names modules that are not in the tree, which is harmless.
    """
    for match in _FROM.finditer(data):
        start = match.start()
        if start and data[start - 1] not in _STATEMENT_BEFORE:
            continue
        names = match.group(3)
        if names.rstrip().endswith(b"\\"):
            names = _continued(data, match.start(3))
        base = _absolute(match.group(2).decode("ascii", "replace"), len(match.group(1)), module, is_package)
        yield base, (names, None)
    for match in _PLAIN.finditer(data):
        start = match.start()
        line_start = _line_start(data, start)
        before = data[line_start:start].strip()
        if before and before[-1:] not in (b";", b":"):
            continue
        for item in match.group(1).split(b"#", 1)[0].split(b";", 1)[0].split(b","):
            words = item.split()
            if words:
                alias = words[2].decode("ascii", "replace") if len(words) == 3 and words[1] == b"as" else None
                yield words[0].decode("ascii", "replace"), (None, alias)


def _continued(data: bytes, start: int) -> bytes:
    end = start
    while True:
        newline = data.find(b"\n", end)
        if newline < 0:
            return data[start:]
        if not data[end:newline].rstrip().endswith(b"\\"):
            return data[start:newline]
        end = newline + 1


def import_index(scans: Mapping[str, FileScan], paths: Iterable[str]) -> Dict[str, List[Tuple[str, Imported]]]:
    """For each module name, the files of `paths` that import it, with what they import."""
    index: Dict[str, List[Tuple[str, Imported]]] = {}
    for path in paths:
        for module, imported in scans[path].imports:
            index.setdefault(module, []).append((path, imported))
    return index


def importers(module: str, path: Optional[str], index: Mapping[str, List[Tuple[str, Imported]]]) -> Iterable[Tuple[str, Imported]]:
    """Who imports `module` (the file `path`, None if not one of the tree), and what: by its own
    name, or as `from package import module`."""
    for importer, imported in index.get(module, ()):
        if importer != path:
            yield importer, imported
    package, _, last = module.rpartition(".")
    for importer, (names, _) in index.get(package, ()):
        if names is not None and importer != path:
            for name, bound in pairs(names):
                if name == last:
                    yield importer, (None, bound)


def pairs(names: bytes) -> List[Tuple[str, str]]:
    """(imported, bound) for each name of `from m import <names>`."""
    text = b"\n".join(line.split(b"#", 1)[0] for line in names.split(b"\n")).split(b";", 1)[0]
    if b"*" in text:
        return [("*", "*")]
    pairs = []
    for item in _NAME_IN_LIST.findall(text.replace(b"\\", b" ").replace(b"(", b" ").replace(b")", b" ")):
        parts = item.decode("ascii", "replace").split()
        pairs.append((parts[0], parts[-1] if len(parts) == 3 else parts[0]))
    return pairs


def _is_package(path: str) -> bool:
    return path.replace("\\", "/").rsplit("/", 1)[-1].split(".", 1)[0] == "__init__"


def _absolute(name: str, level: int, module: str, is_package: bool) -> str:
    if not level:
        return name
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: max(len(parts) - (level - 1), 0)]
    return ".".join(parts + ([name] if name else []))


_LEXEME = re.compile(
    rb"(?P<string>[rRbBuUfF]{0,2}(?:'''[\s\S]*?(?:'''|\Z)|\"\"\"[\s\S]*?(?:\"\"\"|\Z)"
    rb"|'(?:[^'\\\n]|\\.)*'?|\"(?:[^\"\\\n]|\\.)*\"?))"
    rb"|(?P<comment>\#[^\n]*)"
)
_FSTRING_FIELD = re.compile(rb"\{[^{}]*\}")


def _code_only(data: bytes) -> bytes:
    """`data` with comments, strings (but not f-string fields) and import statements blanked.

    A regular expression that knows Python's string and comment syntax: far faster than the
    tokenizer, and it never fails on broken files. Offsets are kept, so lines still match.
    """
    code = _LEXEME.sub(_blank_lexeme, data)
    for pattern in (_FROM, _PLAIN):
        code = pattern.sub(_blank_statement, code)
    return code


def _blank_lexeme(match: "re.Match[bytes]") -> bytes:
    text = match.group(0)
    if match.group("string") is not None:
        prefix = text[: len(text) - len(text.lstrip(b"rRbBuUfF"))]
        if b"f" in prefix.lower():
            out = bytearray(_spaces(text))
            for field_match in _FSTRING_FIELD.finditer(text):
                out[field_match.start() : field_match.end()] = field_match.group(0)
            return bytes(out)
    return _spaces(text)


def _blank_statement(match: "re.Match[bytes]") -> bytes:
    start = match.start()
    if start and match.string[start - 1] not in _STATEMENT_BEFORE:
        return match.group(0)
    return _spaces(match.group(0))


def _spaces(text: bytes) -> bytes:
    if b"\n" not in text:
        return b" " * len(text)
    return b"\n".join(b" " * len(line) for line in text.split(b"\n"))


def _mentions(data: bytes, name: str) -> bool:
    """Whether `name` occurs in `data` as a whole (dotted) word; `from a.b import c` counts for
    `a.b.c` too, found through the import index instead."""
    word = name.encode()
    position = data.find(word)
    while position >= 0:
        end = position + len(word)
        before = data[position - 1 : position] if position else b""
        after = data[end : end + 1]
        if not (before.isalnum() or before == b"_") and not (after.isalnum() or after == b"_"):
            return True
        position = data.find(word, end)
    return False


def _word_pattern(names: Iterable[str]) -> "Optional[re.Pattern[bytes]]":
    wanted = sorted(names, key=lambda n: (-len(n), n))
    if not wanted:
        return None
    return re.compile(rb"(?<!\w)(" + b"|".join(re.escape(n.encode()) for n in wanted) + rb")(?!\w)")


def _tests_class(data: bytes, imports: Tuple[Tuple[str, Imported], ...]) -> bool:
    """Whether the file imports one of `TESTED_CLASSES` (under any alias) or uses one in code."""
    if not _spells_word(data, TESTED_CLASSES):
        return False
    if any(imported in TESTED_CLASSES for _, (names, _alias) in imports if names is not None for imported, _ in pairs(names)):
        return True
    return _uses(_code_only(data), _word_pattern(TESTED_CLASSES), frozenset())


def _spells_word(data: bytes, names: Iterable[str]) -> bool:
    """Whether one of `names` occurs as a whole word anywhere (`_fully_shard` does not count):
    where none does, blanking the strings and comments to look for one in code is wasted."""
    pattern = _word_pattern(names)
    return pattern is not None and pattern.search(data) is not None


def _uses(code: bytes, pattern: "Optional[re.Pattern[bytes]]", sharding_names: FrozenSet[str]) -> bool:
    """Whether `code` uses one of the names `pattern` matches (`_word_pattern`): not right after
    `def`/`class`, and for `fully_shard` itself not followed by `.` (its attributes shard nothing)."""
    if pattern is None:
        return False
    for match in pattern.finditer(code):
        before = code[max(0, match.start() - 16) : match.start()].split()
        if before and before[-1] in (b"def", b"class"):
            continue
        if match.group(1).decode() in sharding_names and code[match.end() : match.end() + 1] == b".":
            continue
        return True
    return False


_IMPORT_KEYWORD = re.compile(rb"\bimport\b")
# What can precede `import` on its line in a statement: nothing, `from <module>`, or a `;`/`:`
# that ends what came before (`try: import x`). Not a doctest prompt (`>>> from a import B`).
_BEFORE_IMPORT = re.compile(rb"(?:.*[;:])?[ \t]*(?:from[ \t]*\.*[ \t]*[\w.]*[ \t]*)?", re.S)
_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_BLANKS = re.compile(rb"(?:[ \t\f]|\\\r?\n)*")


def import_bound_names(data: bytes) -> Optional[FrozenSet[str]]:
    """Every name an import statement of `data` can bind (with others: a superset), or None when
    it cannot be told from the bytes (a non-ASCII identifier may normalise to any name).

    Name resolution follows a module's re-exports (`from .x import f`); a name missing here is
    bound by no import, so the module need not be parsed to learn that it does not re-export it.
    For each `import` keyword that may start or continue an import statement (`_BEFORE_IMPORT`,
    or a line continued from the one before; in a string too: more names only cost a parse), the
    names after it up to the end of the statement: a parenthesised list to its closing
    parenthesis (comments skipped: an import holds no strings), else the line with its backslash
    continuations. Docstrings quote imports in doctests, and a quoted one made every lookup of
    the name it imports parse the module (FSDP1's 2,000 lines, for `FullyShardedDataParallel`).
    """
    found: Set[bytes] = set()
    for match in _IMPORT_KEYWORD.finditer(data):
        line_start = _line_start(data, match.start())
        if not _BEFORE_IMPORT.fullmatch(data, line_start, match.start()) and not _continues(data, line_start):
            continue
        start = match.end()
        opening = _BLANKS.match(data, start).end()  # `import \` may put `(a, b)` on the next line
        if data[opening : opening + 1] == b"(":
            end = _closing_parenthesis(data, opening + 1)
        else:
            end = _statement_end(data, start)
        window = data[start:end]
        if not window.isascii() or window.lstrip().startswith(b"*"):
            return None  # (a star import binds the names of another module)
        found.update(_IDENTIFIER.findall(window))
    return frozenset(name.decode() for name in found)


def _line_start(data: bytes, position: int) -> int:
    """Where the line holding `position` starts; Python ends lines with `\r` alone too."""
    return max(data.rfind(b"\n", 0, position), data.rfind(b"\r", 0, position)) + 1


def _continues(data: bytes, line_start: int) -> bool:
    """Whether the line starting at `line_start` continues the one before (a backslash)."""
    return data[max(line_start - 3, 0) : line_start].rstrip(b"\r\n").endswith(b"\\")


def _closing_parenthesis(data: bytes, position: int) -> int:
    while True:
        close = data.find(b")", position)
        comment = data.find(b"#", position)
        if close < 0:
            return len(data)
        if comment < 0 or close < comment:
            return close
        newline = data.find(b"\n", comment)
        if newline < 0:
            return len(data)
        position = newline


def _statement_end(data: bytes, position: int) -> int:
    while True:
        newline = data.find(b"\n", position)
        if newline < 0:
            return len(data)
        line_end = newline - 1 if data[newline - 1 : newline] == b"\r" else newline
        if data[line_end - 1 : line_end] != b"\\":
            return newline
        position = newline + 1
