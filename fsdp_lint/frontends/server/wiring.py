"""The language server: pygls's LSP machinery, the requests fsdp-lint answers, and the
background runs that publish diagnostics.

Every open, change, save or close of a document asks for a run; the run (in a thread, so that
the server keeps answering hovers and code actions meanwhile) lints the projects of all open
documents with their buffers, then publishes the diagnostics of every open document, those an
edit elsewhere changed included, and an empty list where findings went away. Nothing in a run
can stop the server: a crash is logged to the client (window/logMessage) and the next edit runs
again.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import tokenize
import traceback
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Set, Tuple

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from fsdp_lint import __version__
from fsdp_lint.frontends.server.conversions import SOURCE, Text, Units, code_actions, diagnostic, hover
from fsdp_lint.frontends.server.scheduling import Current, Debounced
from fsdp_lint.frontends.server.workspace import OpenFile, Outcome, is_python, lint_open_files
from fsdp_lint.violation import Violation

# After edits made during a run, how long the server waits for the next one before it lints
# again: long enough to take a burst of keystrokes as one edit, short beside a run.
DEBOUNCE_S = 0.05

Published = List[Tuple[Violation, lsp.Diagnostic]]


class FsdpLintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("fsdp-lint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        # The engine's result cache, the server's own: an unchanged tree answers at once, and an
        # edit that cannot change the analysis reuses it. It is removed as the process exits,
        # after the run under way (if any) has ended and written to it.
        self._cache = tempfile.TemporaryDirectory(prefix="fsdp-lint-server-", ignore_cleanup_errors=True)
        self.published: Dict[str, Published] = {}  # by URI: what the hover reads
        self._reported: Set[str] = set()  # problems and crashes are told once each, not at every keystroke
        self.relint = Debounced(self._lint, DEBOUNCE_S)

    def open_files(self) -> List[OpenFile]:
        files = []
        for uri, document in self.workspace.text_documents.items():
            if document.path is not None and is_python(document.path, document.language_id):
                files.append(OpenFile(uri, os.path.abspath(document.path), document.version, document.source))
        return files

    def folders(self) -> List[str]:
        found = [to_fs_path(folder.uri) for folder in self.workspace.folders.values()] + [self.workspace.root_path]
        return [os.path.abspath(folder) for folder in found if folder]

    def units(self) -> Units:
        return self.workspace.position_codec.client_num_units

    def versioned_edits(self) -> bool:
        workspace = self.client_capabilities.workspace
        edits = workspace.workspace_edit if workspace is not None else None
        return bool(edits is not None and edits.document_changes)

    def log(self, message: str) -> None:
        """An error for the editor's LSP log, once."""
        if message not in self._reported:
            self._reported.add(message)
            self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, message))

    async def _lint(self, current: Current) -> None:
        try:
            files = self.open_files()
            if files:
                loop = asyncio.get_running_loop()
                outcome = await loop.run_in_executor(None, lint_open_files, files, self.folders(), self._cache.name)
                self._report(outcome)
                if current():
                    self._publish(outcome)
        except Exception:  # a bug in the server itself: logged, and the next edit tries again
            self.log(f"fsdp-lint: internal error in the language server\n{traceback.format_exc()}")

    def _report(self, outcome: Outcome) -> None:
        for problem in outcome.problems:
            if problem not in self._reported:
                self._reported.add(problem)
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, f"{problem}; linting with the built-in settings"))
        for failure in outcome.failures:
            self.log(failure)
        for error in outcome.internal_errors:
            self.log(f"{error.describe()}\n{error.trace}")

    def _publish(self, outcome: Outcome) -> None:
        units = self.units()
        open_texts = {file.path: file.text for file in outcome.files.values()}

        @lru_cache(maxsize=None)
        def text_of(path: str) -> Text:
            path = os.path.abspath(path)
            return Text.of(open_texts[path] if path in open_texts else _read(path), units)

        for uri, violations in outcome.findings.items():
            if uri not in self.workspace.text_documents:
                continue  # closed while the run went on
            file = outcome.files[uri]
            found = [(v, diagnostic(v, text_of(file.path), file.version, _uri_of, text_of)) for v in violations]
            self.published[uri] = found
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, [d for _, d in found], file.version))

    def clear(self, uri: str) -> None:
        self.published.pop(uri, None)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))


def _uri_of(path: str) -> str:
    return from_fs_path(os.path.abspath(path)) or path


def _read(path: str) -> str:
    """A file that related information points into and the editor does not hold open."""
    try:
        with tokenize.open(path) as handle:
            return handle.read()
    except (OSError, SyntaxError, UnicodeDecodeError):
        return ""


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def build() -> FsdpLintServer:
    server = FsdpLintServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: FsdpLintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.relint.request()

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: FsdpLintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.relint.request()

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: FsdpLintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.relint.request()

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: FsdpLintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.clear(params.text_document.uri)
        ls.relint.request()  # the file on disk now stands for the closed buffer in the others' runs

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def actions(ls: FsdpLintServer, params: lsp.CodeActionParams) -> Optional[List[lsp.CodeAction]]:
        uri = params.text_document.uri
        document = ls.workspace.get_text_document(uri)
        ours: Sequence[lsp.Diagnostic] = [d for d in params.context.diagnostics if d.source == SOURCE]
        if not ours:  # a client that sends no context: the diagnostics published in the range
            ours = [d for _, d in ls.published.get(uri, []) if _overlaps(d.range, params.range)]
        return code_actions(uri, document.version, document.source, ls.units(), ours, ls.versioned_edits()) or None

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: FsdpLintServer, params: lsp.HoverParams) -> Optional[lsp.Hover]:
        return hover(ls.published.get(params.text_document.uri, []), params.position)

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: FsdpLintServer, params: None) -> None:
        ls.relint.cancel()  # publish nothing more

    return server


def serve() -> None:
    """Serve one client over stdin and stdout until it says `exit`."""
    build().start_io()
