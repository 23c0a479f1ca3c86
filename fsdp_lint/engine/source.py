"""Reading and parsing one file, with every way that can fail turned into one FSD001 finding."""

from __future__ import annotations

import ast
import copy
import functools
import io
import os
import sys
import tokenize
from typing import Dict, List, Mapping, Optional, Tuple, TypeVar, Union

from astroid import nodes
from astroid.builder import AstroidBuilder, _parse_string
from astroid.exceptions import AstroidBuildingError, AstroidSyntaxError
from astroid.manager import AstroidManager
from astroid.raw_building import InspectBuilder
from astroid.rebuilder import TreeRebuilder

from fsdp_lint.analysis.node_listing import listed
from fsdp_lint.analysis.project import defined_in, scopes_of
from fsdp_lint.engine import newer_syntax
from fsdp_lint.engine.files import unanalysable
from fsdp_lint.tool_codes import NeedsNewerPython
from fsdp_lint.violation import Violation

_Documented = TypeVar("_Documented", ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


class _OwnTextBuilder(AstroidBuilder):
    """Builds a module from its own text and nothing else.

    astroid's usual post-build step resolves `from x import *` and infers the owner of every
    `x.attr = value` target: both search `sys.path` (changing the working directory on the way),
    parse whatever they find there, can load extension modules, and took 95% of the build time on
    the torch tree. It also caches each module in a process-wide table that would outlive the run.
    The analysis reads neither, so this builder keeps only the plain imported names.

    Nor does it bootstrap astroid's `builtins` module from the running interpreter (0.06 s): the
    analysis never infers, and its lookups stop short of builtins (`names.binding_of`). astroid
    builds it later, as usual, for whatever asks.
    """

    def __init__(self, manager: AstroidManager):
        InspectBuilder.__init__(self, manager)
        self._apply_transforms = False

    def build(self, text: str, modname: str, path: str, syntax: Optional[ast.Module] = None) -> nodes.Module:
        """The module of `text`, rebuilt from `syntax` where the caller parsed `text` already (the
        flake8 plugin is handed flake8's tree), as `string_build` would build it but for what the
        analysis never reads: the `position` of each `def` and `class` header, which astroid finds
        by tokenizing the header again (a quarter of the rebuild), and on flake8's tree, which is
        parsed without them, the types of type comments."""
        if syntax is None:
            try:
                syntax = _parse_string(text, type_comments=True, modname=modname)
            except (TypeError, ValueError, SyntaxError, MemoryError) as exc:
                raise AstroidSyntaxError("Parsing Python code failed:\n{error}", source=text, modname=modname, path=path, error=exc) from exc
        package = modname.endswith(".__init__") or os.path.splitext(os.path.basename(path))[0] == "__init__"
        builder = _Rebuilder(self._manager)  # without the text: no header positions
        module = builder.visit_module(syntax, modname[:-9] if modname.endswith(".__init__") else modname, os.path.abspath(path), package)
        module.file_bytes = text.encode("utf-8")
        module = self._post_build(module, builder, "utf-8")
        _share_positions(module)
        return module

    def _post_build(self, module: nodes.Module, builder: TreeRebuilder, encoding: str) -> nodes.Module:
        module.file_encoding = encoding
        for from_node, global_names in builder._import_from_nodes:
            if from_node.modname == "__future__":
                module.future_imports.update(name for name, _ in from_node.names)
            for name, alias in from_node.names:
                if name == "*":
                    continue
                target = module if (alias or name) in global_names else from_node.parent
                target.set_local(alias or name, from_node)
                target.scope().locals[alias or name].sort(key=lambda n: n.fromlineno or 0)
        # The rebuilder keeps the source's lines and its bound visit methods (a cycle): freed now
        # by reference counting, not left to the cyclic collector, which is off while a run lints.
        builder._visit_meths.clear()
        return module


# Each line number above 256 (CPython's small integers) that the parser returns is an object of
# its own, and astroid's nodes keep the parser's: two a node, 28 bytes each, the largest part of
# what a run's syntax trees hold after their nodes and lists (Automodel: about half a million).
# The trees share one object for each number instead (columns rarely pass 256).
_POSITIONS: Dict[int, int] = {}


def _share_positions(module: nodes.Module) -> None:
    """Give `module`'s nodes the shared object of each of their line numbers, going through the
    analysis' listing of its nodes (`node_listing.listed`), which it makes anyway: a flat loop,
    where a walk of the parser's tree cost a twentieth of a cold run (torchtitan)."""
    shared = _POSITIONS.setdefault
    for node in listed(module):
        line = node.lineno
        if line is not None and line > 256:
            node.lineno = shared(line, line)
        end = node.end_lineno
        if end is not None and end > 256:
            node.end_lineno = shared(end, end)


class _Rebuilder(TreeRebuilder):
    """astroid's rebuilder, on a syntax tree that other tools may read after it: it takes each
    docstring out of the body of a copy of its node, not of the node (flake8 hands every plugin
    the same tree)."""

    def _get_doc(self, node: _Documented) -> Tuple[_Documented, Optional[ast.Constant]]:
        return super()._get_doc(copy.copy(node))


@functools.lru_cache(maxsize=None)
def _builder() -> _OwnTextBuilder:
    """Made on the first parse: astroid's manager loads its brain plugins when first created
    (0.09 s), which a run answered from the cache never needs."""
    return _OwnTextBuilder(AstroidManager())


_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"


def decode(data: bytes, display: str) -> Union[str, Violation]:
    """Decode as Python does: BOM, then a PEP 263 coding cookie, else UTF-8."""
    nul = data.find(b"\x00")
    if nul >= 0:
        return unanalysable(display, "the file contains NUL bytes", data.count(b"\n", 0, nul) + 1)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        return unanalysable(display, str(error).split(" (", 1)[0], getattr(error, "lineno", None) or 1)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        return unanalysable(display, f"bytes that are not valid {encoding} at byte offset {error.start}", line)
    except LookupError:
        return unanalysable(display, f"unknown encoding {encoding!r}")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def parse(
    text: str, module_name: str, path: str, display: str, target: Optional[newer_syntax.Version] = None, raw: Optional[bytes] = None,
    syntax: Optional[ast.Module] = None,
) -> Union[nodes.Module, Violation]:
    """The module, or why it cannot be analysed. `target` is the oldest Python the project supports
    (`target-version`, `requires-python`), None where it declares none. `raw`: the file's bytes,
    which the module keeps as its `file_bytes` where they are the UTF-8 text astroid makes (the
    run keeps them anyway: one copy, not two). `syntax`: `text`'s syntax tree, where the caller
    has it (`ast.parse(text)`)."""
    try:
        module = _builder().build(text, module_name, path, syntax)
        if raw is not None and module.file_bytes == raw:
            module.file_bytes = raw
        return module
    except AstroidSyntaxError as error:
        cause = error.error if isinstance(getattr(error, "error", None), SyntaxError) else None
        if cause is None:
            return unanalysable(display, str(error))
        return _syntax_error(text, cause, display, target)
    except RecursionError:
        return unanalysable(display, "nesting too deep to analyse")
    except (AstroidBuildingError, ValueError, MemoryError) as error:
        return unanalysable(display, f"parser error: {error}")


def _syntax_error(text: str, cause: SyntaxError, display: str, target: Optional[newer_syntax.Version]) -> Violation:
    """FSD001 for a genuine syntax error; FSD002 for a file that only needs a newer Python than
    this one (`fsdp_lint.engine.newer_syntax`), unless the project targets an older one."""
    message = cause.msg or "invalid syntax"
    if "too many nested" in message or "too complex" in message:
        return unanalysable(display, f"nesting too deep for the parser ({message})", cause.lineno or 1)
    reading = newer_syntax.read(text)
    needs = reading.needs
    if needs is None:
        return unanalysable(display, f"syntax error: {message} (parsed as Python {_PYTHON})", cause.lineno or 1, cause.offset or 1)
    if reading.error is not None:  # a genuine error besides the newer syntax: where it is
        left = reading.error
        return unanalysable(
            display, f"syntax error: {left.msg or 'invalid syntax'} (parsed as Python {_PYTHON}, with the syntax of Python "
            f"{newer_syntax.version_text(needs)} that the file also uses)", left.lineno or 1, left.offset or 1,
        )
    first = reading.first_of(needs)
    needed = newer_syntax.version_text(needs)
    if target is not None and needs > target:
        return unanalysable(
            display, f"syntax error: {first.what} needs Python {needed}, but the project supports Python "
            f"{newer_syntax.version_text(target)} (its target-version or requires-python)", first.line, first.column,
        )
    return Violation(
        display, first.line, first.column, NeedsNewerPython.code, NeedsNewerPython.name,
        f"needs Python {needed} to parse ({first.what}); run fsdp-lint under {needed}+ to analyse this file",
        NeedsNewerPython.severity,
    )


def character_column(line_text: str, byte_offset: int) -> int:
    """Python's AST columns count UTF-8 bytes; users and editors count characters."""
    if line_text.isascii():
        return byte_offset
    return len(line_text.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))


# A plain class, not a dataclass, as nothing compares it: see `fsdp_lint.engine.lint.LintResult`.
class ParsedFile:
    def __init__(self, display: str, tree: nodes.Module, texts: Mapping[str, str]):
        self.display = display
        self.tree = tree
        self.texts = texts  # the run's sources by display path (a disk run's decodes them when asked)

    @property
    def text(self) -> str:
        """Asked for only where a file has findings (its `noqa` comments, its lines): not kept."""
        return self.texts[self.display]

    def line(self, number: int) -> str:
        lines = self.lines
        return lines[number - 1] if 0 < number <= len(lines) else ""

    @functools.cached_property
    def lines(self) -> List[str]:
        return self.text.splitlines()

    @functools.cached_property
    def scopes(self) -> Tuple[nodes.NodeNG, ...]:
        """The scopes the analysis walks, found once: every round of the facts and the rule pass
        walk them all again."""
        return tuple(scopes_of(self.tree))

    @functools.cached_property
    def classes(self) -> Tuple[nodes.ClassDef, ...]:
        """The classes of the file, nested ones too, found once, for the same reason."""
        return tuple(defined_in(self.tree, nodes.ClassDef))

