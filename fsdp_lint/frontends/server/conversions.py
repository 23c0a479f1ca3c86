"""Findings as the editor shows them: diagnostics, quick fixes and hovers.

A Violation counts 1-based lines and 1-based characters (code points); LSP counts 0-based lines
and characters in the units the client negotiated (UTF-16 code units unless it chose another
encoding), so every position is converted against the text of its file. A diagnostic's `data`
carries what its code actions need (the fix's edits, already converted, and the document version
they apply to), so that a code action request is answered from the diagnostic the client sends
back, whatever the server has linted since.
"""

from __future__ import annotations

import tokenize
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from lsprotocol import types as lsp

from fsdp_lint.catalogue import lookup
from fsdp_lint.engine.fixes import physical_lines
from fsdp_lint.frontends.add_noqa import with_directives
from fsdp_lint.frontends.docs import documentation_url, rule_page
from fsdp_lint.violation import SAFE, Fix, Note, Violation

SOURCE = "fsdp-lint"
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}

Units = Callable[[str], int]  # how many of the client's code units a string takes


@dataclass(frozen=True)
class Text:
    """A file's text as positions are converted in it: its lines as Python numbers them, and how
    the client counts characters."""

    lines: Sequence[str]
    units: Units

    @classmethod
    def of(cls, text: str, units: Units) -> "Text":
        return cls(physical_lines(text), units)

    def body(self, index: int) -> str:
        """Line `index` (0-based) without its line ending."""
        return self.lines[index].rstrip("\r\n") if 0 <= index < len(self.lines) else ""

    def position(self, line: int, column: int) -> lsp.Position:
        """A 1-based line and character column as an LSP position. A place past the last line (a
        syntax error at the end of the file) is the end of the text."""
        index = max(line - 1, 0)
        if index >= len(self.lines):
            return lsp.Position(len(self.lines), 0)
        return lsp.Position(index, self.units(self.body(index)[: max(column - 1, 0)]))

    def range(self, line: int, column: int, end_line: Optional[int], end_column: Optional[int]) -> lsp.Range:
        """A finding's range; without an end (a syntax error), to the end of its line."""
        if end_line is None or end_column is None:
            end_line, end_column = line, len(self.body(line - 1)) + 1
        return lsp.Range(self.position(line, column), self.position(end_line, end_column))


def diagnostic(v: Violation, text: Text, version: Optional[int], uri_of: Callable[[str], str], text_of: Callable[[str], Text]) -> lsp.Diagnostic:
    """The diagnostic of one finding in its file, `text`. The path by which a sharded object
    reached it (where it was sharded, each call that passed it on) becomes related information,
    placed in each note's own file (`text_of`)."""
    entry = lookup(v.code)
    data: Dict[str, Any] = {"version": version, "code": v.code, "line": v.line}
    if v.fix is not None:
        data["fix"] = _fix_data(v, v.fix, text)
    return lsp.Diagnostic(
        range=text.range(v.line, v.column, v.end_line, v.end_column),
        message=f"{v.message}\nhelp: {v.help}" if v.help else v.message,
        severity=_SEVERITY.get(v.severity, lsp.DiagnosticSeverity.Information),
        code=v.code,
        code_description=lsp.CodeDescription(href=documentation_url(entry)) if entry is not None else None,
        source=SOURCE,
        related_information=[_related(note, uri_of, text_of) for note in v.related] or None,
        data=data,
    )


def _related(note: Note, uri_of: Callable[[str], str], text_of: Callable[[str], Text]) -> lsp.DiagnosticRelatedInformation:
    position = text_of(note.path).position(note.line, note.column)
    return lsp.DiagnosticRelatedInformation(lsp.Location(uri_of(note.path), lsp.Range(position, position)), note.message)


def _fix_data(v: Violation, fix: Fix, text: Text) -> Dict[str, Any]:
    title = f"Fix {v.code}: {v.help}" if v.help else f"Fix {v.code}"
    edits = []
    for edit in fix.edits:
        where = text.range(edit.line, edit.column, edit.end_line, edit.end_column)
        edits.append({"range": [where.start.line, where.start.character, where.end.line, where.end.character], "text": edit.text})
    safe = fix.applicability == SAFE
    return {"title": title if safe else f"{title} (unsafe)", "safe": safe, "edits": edits}


def code_actions(
    uri: str, version: Optional[int], source: str, units: Units, diagnostics: Sequence[lsp.Diagnostic], versioned: bool
) -> List[lsp.CodeAction]:
    """For each of fsdp-lint's diagnostics, made for the document as it is now (`version`): its
    fix as a quick fix (preferred when safe; the title says when it is unsafe), and "Add `# noqa:
    CODE`" on its line, the edit `--add-noqa` makes. `versioned`: the client takes edits bound to
    a document version (`documentChanges`), which it refuses once the document has changed."""
    actions: List[lsp.CodeAction] = []
    text = Text.of(source, units)
    for found in diagnostics:
        data = found.data if found.source == SOURCE and isinstance(found.data, dict) else None
        if data is None or data.get("version") != version:
            continue  # another tool's, or made for an older text: the next diagnostics replace it
        fix = data.get("fix")
        if fix:
            edits = [lsp.TextEdit(_range(edit["range"]), edit["text"]) for edit in fix["edits"]]
            actions.append(lsp.CodeAction(
                fix["title"], kind=lsp.CodeActionKind.QuickFix, diagnostics=[found], is_preferred=fix["safe"],
                edit=_workspace_edit(uri, version, edits, versioned),
            ))
        noqa = _noqa_edit(text, source, data["line"], data["code"])
        if noqa is not None:
            actions.append(lsp.CodeAction(
                f"Add `# noqa: {data['code']}`", kind=lsp.CodeActionKind.QuickFix, diagnostics=[found],
                edit=_workspace_edit(uri, version, [noqa], versioned),
            ))
    return actions


def _range(values: Sequence[int]) -> lsp.Range:
    line, character, end_line, end_character = values
    return lsp.Range(lsp.Position(line, character), lsp.Position(end_line, end_character))


def _noqa_edit(text: Text, source: str, line: int, code: str) -> Optional[lsp.TextEdit]:
    entry = lookup(code)
    if entry is None or entry.tool:
        return None  # FSD001 and FSD002 are about the whole file: no directive silences them
    try:
        changed = with_directives(source, {line: {code}})
    except (tokenize.TokenError, SyntaxError):
        return None  # a half-typed file: the directive can wait until it tokenizes
    if line not in changed:
        return None  # inside a multi-line string, before a `\` continuation
    index = line - 1
    whole = lsp.Range(lsp.Position(index, 0), lsp.Position(index, text.units(text.body(index))))
    return lsp.TextEdit(whole, changed[line])


def _workspace_edit(uri: str, version: Optional[int], edits: List[lsp.TextEdit], versioned: bool) -> lsp.WorkspaceEdit:
    if versioned:
        document = lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(document, edits)])
    return lsp.WorkspaceEdit(changes={uri: edits})


def hover(found: Sequence[Tuple[Violation, lsp.Diagnostic]], position: lsp.Position) -> Optional[lsp.Hover]:
    """The page of each rule whose diagnostic covers `position` (`fsdp-lint rule CODE`: what it
    reports, why, an example, its options and its runtime twin)."""
    here = [(v, d) for v, d in found if _covers(d.range, position)]
    pages: Dict[str, str] = {}
    for v, _ in here:
        entry = lookup(v.code)
        if entry is not None and v.code not in pages:
            pages[v.code] = rule_page(entry)
    if not pages:
        return None
    content = lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n---\n\n".join(pages.values()))
    return lsp.Hover(content, here[0][1].range)


def _covers(where: lsp.Range, position: lsp.Position) -> bool:
    at = (position.line, position.character)
    return (where.start.line, where.start.character) <= at <= (where.end.line, where.end.character)
