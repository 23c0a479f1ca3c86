"""`fsdp-lint server`, driven over stdio by a real LSP client (pytest-lsp), as an editor drives
it: a workspace of two modules, where the findings of one depend on the other."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path
from typing import Callable, List, Sequence

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
pytest.importorskip("pygls")

from lsprotocol import types as lsp  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from fsdp_lint.engine.fixes import physical_lines  # noqa: E402
from tests.static.helpers import write_tree  # noqa: E402

MODEL = textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from torch.distributed.fsdp import fully_shard


    def setup():
        model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
        fully_shard(model)
        return model


    def save(model):
        torch.save(model.state_dict(), "ckpt.pt")


    save(setup())
    """)

# FSD201 at line 7 (0-based 6): `model` reaches step() sharded by model.setup().
TRAIN = textwrap.dedent("""\
    import torch

    from pkg.model import setup


    def step(model, batch):
        return model.forward(batch).sum()


    def main(loader):
        model = setup()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for batch in loader:
            step(model, batch).backward()
            optimizer.step()
    """)

SHARDING = "    fully_shard(model)\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "fsdp_lint", "server"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/model.py": MODEL, "pkg/train.py": TRAIN})
    root = from_fs_path(str(tmp_path))
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=root,
        workspace_folders=[lsp.WorkspaceFolder(root, "project")],
    ))
    yield
    await lsp_client.shutdown_session()


def _uri(tmp_path: Path, name: str) -> str:
    return from_fs_path(str(tmp_path / "pkg" / name))


def _open(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "python", 1, text)))


def _replace(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version, uri), [lsp.TextDocumentContentChangeWholeDocument(text)],
    ))


def _codes(client: LanguageClient, uri: str) -> List[str]:
    return sorted(str(d.code) for d in client.diagnostics.get(uri, []))


async def _until(condition: Callable[[], bool], timeout: float = 60) -> None:
    """The server publishes in the background: wait until what it published satisfies `condition`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "the server did not publish the expected diagnostics"
        await asyncio.sleep(0.02)


def _apply(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """Apply LSP edits (ASCII text: characters are UTF-16 code units) as an editor does."""
    lines = physical_lines(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position: lsp.Position) -> int:
        return starts[position.line] + position.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def _edits(action: lsp.CodeAction) -> List[lsp.TextEdit]:
    assert action.edit is not None and action.edit.document_changes, action  # VS Code takes versioned edits
    (change,) = action.edit.document_changes
    assert isinstance(change, lsp.TextDocumentEdit)
    return list(change.edits)


@pytest.mark.asyncio
async def test_diagnostics_of_both_files_follow_an_edit_in_one(client: LanguageClient, tmp_path: Path):
    model, train = _uri(tmp_path, "model.py"), _uri(tmp_path, "train.py")
    _open(client, model, MODEL)
    _open(client, train, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"] and _codes(client, model) == ["FSD301"])

    (bypass,) = client.diagnostics[train]
    assert bypass.range == lsp.Range(lsp.Position(6, 11), lsp.Position(6, 31))
    assert bypass.severity == lsp.DiagnosticSeverity.Error and bypass.source == "fsdp-lint"
    assert bypass.code_description is not None and bypass.code_description.href.endswith("/rules/fsd201_forward_bypass.py")
    assert "help: call the module itself" in bypass.message
    # How the sharded model got there: sharded in main() (line 11), passed to step() (line 14).
    related = [(r.location.uri, r.location.range.start.line, r.message) for r in bypass.related_information or []]
    assert [(uri, line) for uri, line, _ in related] == [(train, 10), (train, 13)]
    assert "sharded in main()" in related[0][2] and "passed to step()" in related[1][2]

    # setup() no longer shards: the finding in train.py goes away, and so does save()'s in model.py.
    _replace(client, model, 2, MODEL.replace(SHARDING, ""))
    await _until(lambda: _codes(client, train) == [] and _codes(client, model) == [])
    # The unsaved edit is undone: both come back.
    _replace(client, model, 3, MODEL)
    await _until(lambda: _codes(client, train) == ["FSD201"] and _codes(client, model) == ["FSD301"])


@pytest.mark.asyncio
async def test_code_actions_fix_the_finding_or_silence_it(client: LanguageClient, tmp_path: Path):
    model, train = _uri(tmp_path, "model.py"), _uri(tmp_path, "train.py")
    _open(client, model, MODEL)
    _open(client, train, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"])
    (bypass,) = client.diagnostics[train]
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(train), bypass.range, lsp.CodeActionContext([bypass]),
    ))
    assert actions is not None
    by_title = {action.title: action for action in actions if isinstance(action, lsp.CodeAction)}
    fix = by_title["Fix FSD201: call the module itself: `model(...)`"]
    assert fix.is_preferred and fix.kind == lsp.CodeActionKind.QuickFix
    noqa = by_title["Add `# noqa: FSD201`"]

    fixed = _apply(TRAIN, _edits(fix))
    assert "    return model(batch).sum()\n" in fixed
    _replace(client, train, 2, fixed)
    await _until(lambda: _codes(client, train) == [])
    _replace(client, train, 3, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"])

    silenced = _apply(TRAIN, _edits(noqa))
    assert "    return model.forward(batch).sum()  # noqa: FSD201\n" in silenced
    _replace(client, train, 4, silenced)
    await _until(lambda: _codes(client, train) == [])
    _replace(client, train, 5, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"])
    # A fix made for version 5 is not offered once the text has moved on to version 6.
    (stale,) = client.diagnostics[train]
    _replace(client, train, 6, TRAIN + "\n")
    assert not await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(train), stale.range, lsp.CodeActionContext([stale]),
    ))


@pytest.mark.asyncio
async def test_hover_over_a_finding_shows_the_rule_page_and_its_runtime_twin(client: LanguageClient, tmp_path: Path):
    train = _uri(tmp_path, "train.py")
    _open(client, train, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"])
    found = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(train), lsp.Position(6, 20)))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    page = found.contents.value
    assert page.startswith("# forward-bypass (FSD201)") and "## Runtime twin" in page
    assert found.range == client.diagnostics[train][0].range
    elsewhere = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(train), lsp.Position(0, 0)))
    assert elsewhere is None


@pytest.mark.asyncio
async def test_a_half_typed_buffer_is_an_fsd001_and_the_server_keeps_serving(client: LanguageClient, tmp_path: Path):
    train = _uri(tmp_path, "train.py")
    _open(client, train, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"])
    _replace(client, train, 2, TRAIN.replace("def main(loader):", "def main(loader:"))
    await _until(lambda: _codes(client, train) == ["FSD001"])
    (broken,) = client.diagnostics[train]
    assert broken.range.start.line == 9 and "syntax error" in broken.message
    _replace(client, train, 3, TRAIN + "for x in (")  # unclosed at the end of the file
    await _until(lambda: list(client.diagnostics[train]) != [broken] and _codes(client, train) == ["FSD001"])
    _replace(client, train, 4, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"])
    assert not [m for m in client.log_messages if m.type == lsp.MessageType.Error]


@pytest.mark.asyncio
async def test_closing_a_file_clears_its_diagnostics(client: LanguageClient, tmp_path: Path):
    train = _uri(tmp_path, "train.py")
    _open(client, train, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"])
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(train)))
    await _until(lambda: _codes(client, train) == [])


@pytest.mark.asyncio
async def test_the_configuration_is_the_one_the_cli_reads(client: LanguageClient, tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.fsdp-lint]\nignore = ["FSD3"]\n', encoding="utf-8")
    model, train = _uri(tmp_path, "model.py"), _uri(tmp_path, "train.py")
    _open(client, model, MODEL)
    _open(client, train, TRAIN)
    await _until(lambda: _codes(client, train) == ["FSD201"] and model in client.diagnostics)
    assert _codes(client, model) == []  # FSD301 ignored by the project's configuration
    # A broken configuration is shown once and the files are linted with the built-in settings.
    (tmp_path / "pyproject.toml").write_text('[tool.fsdp-lint]\nselct = ["FSD2"]\n', encoding="utf-8")
    _replace(client, model, 2, MODEL + "\n")
    await _until(lambda: _codes(client, model) == ["FSD301"])
    (shown,) = client.messages
    assert shown.type == lsp.MessageType.Warning and "selct" in shown.message and "built-in settings" in shown.message


# The conversions and the workspace, in this process: what the editor gets from a finding.

NESTED_NO_SYNC = textwrap.dedent("""\
    from torch.distributed.fsdp import fully_shard

    model = Net()
    fully_shard(model)
    with model.no_sync():
        model(batches[0]).backward()
        with model.no_sync():
            model(batches[1]).backward()
    """)


def _findings(source: str, select: str):
    from fsdp_lint.engine.lint import LintOptions, lint_sources
    from fsdp_lint.selection import Selection

    return lint_sources({"train.py": source}, LintOptions(selection=Selection((select,)))).violations


def test_positions_count_the_code_units_the_client_negotiated():
    from pygls.workspace.position_codec import PositionCodec

    from fsdp_lint.frontends.server.conversions import Text, diagnostic

    source = "from torch.distributed.fsdp import fully_shard\nmodel = Net()\nfully_shard(model)\nface = '😋'; out = model.forward(x)\n"
    (bypass,) = _findings(source, "FSD201")
    starts = {}
    for encoding in (lsp.PositionEncodingKind.Utf16, lsp.PositionEncodingKind.Utf32, lsp.PositionEncodingKind.Utf8):
        text = Text.of(source, PositionCodec(encoding).client_num_units)
        starts[encoding] = diagnostic(bypass, text, 1, str, lambda path: text).range.start
    assert {position.line for position in starts.values()} == {3}
    # The emoji is one code point, two UTF-16 code units, four UTF-8 bytes.
    assert starts[lsp.PositionEncodingKind.Utf32].character == bypass.column - 1 == 18
    assert starts[lsp.PositionEncodingKind.Utf16].character == 19
    assert starts[lsp.PositionEncodingKind.Utf8].character == 21


def test_an_unsafe_fix_is_labelled_and_not_preferred():
    from fsdp_lint.frontends.server.conversions import Text, code_actions, diagnostic

    text = Text.of(NESTED_NO_SYNC, len)
    diagnostics = [diagnostic(v, text, 7, str, lambda path: text) for v in _findings(NESTED_NO_SYNC, "FSD203")]
    actions = code_actions("file:///train.py", 7, NESTED_NO_SYNC, len, diagnostics, versioned=False)
    fixes = {action.title.endswith("(unsafe)"): action.is_preferred for action in actions if not action.title.startswith("Add")}
    assert fixes == {True: False, False: True}  # one unsafe fix, not preferred; one safe fix, preferred
    noqa = [action for action in actions if action.title == "Add `# noqa: FSD203`"]
    assert len(noqa) == 2 and all(action.edit.changes and "file:///train.py" in action.edit.changes for action in noqa)


def test_a_crash_in_one_project_is_reported_and_the_others_are_linted(tmp_path, monkeypatch):
    from fsdp_lint.frontends.server import workspace

    write_tree(tmp_path, {"a/train.py": TRAIN.replace("from pkg.model import setup", "from b.model import setup"),
                          "b/model.py": MODEL})
    real = workspace.lint_project

    def crashing_in_a(project, buffers):
        if project.root == str(tmp_path / "a"):
            raise RuntimeError("boom")
        return real(project, buffers)

    monkeypatch.setattr(workspace, "lint_project", crashing_in_a)
    files = [workspace.OpenFile(f"file://{name}", str(tmp_path / name), 1, (tmp_path / name).read_text())
             for name in ("a/train.py", "b/model.py")]
    outcome = workspace.lint_open_files(files, [str(tmp_path / "a"), str(tmp_path / "b")], str(tmp_path / "cache"))
    (failure,) = outcome.failures
    assert "RuntimeError: boom" in failure and "Traceback" in failure
    assert not outcome.internal_errors, outcome.internal_errors[0].describe()
    assert [v.code for v in outcome.findings["file://b/model.py"]] == ["FSD301"]
    assert "file://a/train.py" not in outcome.findings  # it keeps what was published before


def test_an_edit_during_a_run_supersedes_it_and_a_burst_is_one_more_run():
    from fsdp_lint.frontends.server.scheduling import Debounced

    async def scenario() -> List[bool]:
        runs = []
        first_may_end = asyncio.Event()

        async def work(current):
            runs.append(current)
            if len(runs) == 1:
                await first_may_end.wait()

        relint = Debounced(work, 0.01)
        relint.request()
        await asyncio.sleep(0.01)  # the first run is under way
        for _ in range(5):  # a burst of edits meanwhile
            relint.request()
        first_may_end.set()
        await asyncio.sleep(0.2)
        return [current() for current in runs]

    assert asyncio.run(scenario()) == [False, True]  # the first run's results are stale; one more run


def test_the_project_of_a_file_is_the_configuring_directory_else_the_workspace_folder_else_none(tmp_path):
    from fsdp_lint.frontends.server.projects import project_of

    write_tree(tmp_path, {"ws/sub/pyproject.toml": "[tool.fsdp-lint]\nignore = [\"FSD3\"]\n", "ws/sub/a.py": "", "ws/b.py": "",
                          "loose/c.py": ""})
    configured = project_of(str(tmp_path / "ws/sub/a.py"), [str(tmp_path / "ws")], "cache").project
    assert configured.root == str(tmp_path / "ws/sub") and configured.options.selection.ignore == ("FSD3",)
    assert project_of(str(tmp_path / "ws/b.py"), [str(tmp_path / "ws")], "cache").project.root == str(tmp_path / "ws")
    assert project_of(str(tmp_path / "loose/c.py"), [str(tmp_path / "ws")], "cache").project.root is None
