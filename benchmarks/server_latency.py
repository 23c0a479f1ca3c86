"""How long `fsdp-lint server` takes to answer an edit: the time from the client's `didChange`
to the `publishDiagnostics` of that version, as an editor waits for it.

A small project (a 1,000-line FSDP2 trainer, `fsdp2_training_file.py`, beside a module that
builds the model and one of ordinary helpers) is opened in the server over stdio by pygls's own
client; then, one at a time, edits of the trainer:

- *line edit*: a constant in the middle of the trainer changes (the analysis must run again);
- *finding in/out*: `model(batch["input"])` becomes `model.forward(batch["input"])` (FSD201 appears)
  and back (it goes), alternately;
- *edit elsewhere*: the ordinary helpers' module changes (its buffer is not analysed: the result
  cache answers the trainer's analysis);

and, in the same process as this script, the run itself without LSP (`workspace.lint_open_files`
on the same buffers), to show what the protocol and the thread hand-off add. Edits are 0.1 s
apart, so each starts its run at once (the quiet spell, `wiring.DEBOUNCE_S`, only follows edits
made during a run). Target (issue 17): 0.2 s after an edit.

    python benchmarks/server_latency.py [--repeat 20] [--lines 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from typing import Callable, Dict, List, Tuple

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from fsdp2_training_file import training_file

TARGET_S = 0.2

MODEL = '''\
import torch.nn as nn
from torch.distributed.fsdp import fully_shard


def shard(model: nn.Module) -> nn.Module:
    for block in model.blocks:
        fully_shard(block)
    fully_shard(model)
    return model
'''

HELPERS = "".join(f"def helper_{i}(values, scale={i}):\n    return [v * scale + {i} for v in values]\n\n\n" for i in range(50))

CALL = 'model(batch["input"])'
BYPASS = 'model.forward(batch["input"])'


class _Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("server-latency", "1")
        self.codes: Dict[Tuple[str, int], List[str]] = {}  # (uri, version) -> the codes published
        self.waiting: Dict[str, "asyncio.Future[float]"] = {}  # uri -> when its next diagnostics arrive

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: lsp.PublishDiagnosticsParams) -> None:
            arrived = time.perf_counter()
            self.codes[(params.uri, params.version or 0)] = sorted(str(d.code) for d in params.diagnostics)
            waiting = self.waiting.pop(params.uri, None)
            if waiting is not None and not waiting.done():
                waiting.set_result(arrived)

    def next_diagnostics(self, uri: str) -> "asyncio.Future[float]":
        """When the next diagnostics of `uri` arrive (awaited without polling: the client shares
        the machine's cores with the server it times)."""
        self.waiting[uri] = asyncio.get_running_loop().create_future()
        return self.waiting[uri]


def _project(directory: str, lines: int) -> Dict[str, str]:
    files = {"train.py": training_file(lines), "model.py": MODEL, "helpers.py": HELPERS}
    for name, text in files.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    return files


async def _measure(directory: str, files: Dict[str, str], repeat: int) -> Dict[str, List[float]]:
    client = _Client()
    await client.start_io(sys.executable, "-m", "fsdp_lint", "server")
    root = from_fs_path(directory)
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=root, workspace_folders=[lsp.WorkspaceFolder(root, "bench")],
    ))
    client.initialized(lsp.InitializedParams())
    uris = {name: from_fs_path(os.path.join(directory, name)) for name in files}
    versions = {name: 1 for name in files}
    texts = dict(files)
    trainer = client.next_diagnostics(uris["train.py"])
    started = time.perf_counter()
    for name, text in files.items():
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uris[name], "python", 1, text)))
    times: Dict[str, List[float]] = {"open (cold)": [await asyncio.wait_for(trainer, 120) - started]}
    await asyncio.sleep(0.5)  # the runs the other opens asked for

    async def edit(label: str, name: str, change: Callable[[str], str]) -> None:
        """Time an edit of `name` until the trainer's diagnostics arrive (an edit elsewhere
        republishes them at their unchanged version)."""
        texts[name] = change(texts[name])
        versions[name] += 1
        trainer = client.next_diagnostics(uris["train.py"])
        sent = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(versions[name], uris[name]), [lsp.TextDocumentContentChangeWholeDocument(texts[name])],
        ))
        times.setdefault(label, []).append(await asyncio.wait_for(trainer, 120) - sent)
        await asyncio.sleep(0.1)  # an editor's pause between edits: no run is under way

    middle = len(texts["train.py"].splitlines()) // 2
    for round_ in range(repeat):
        await edit("line edit", "train.py", lambda text: _replace_line(text, middle, f"MAGIC_{round_} = {round_}"))
        await edit("finding in/out", "train.py", lambda text: text.replace(CALL, BYPASS, 1) if CALL in text else text.replace(BYPASS, CALL, 1))
        assert ("FSD201" in client.codes[(uris["train.py"], versions["train.py"])]) == (BYPASS in texts["train.py"])
        await edit("edit elsewhere", "helpers.py", lambda text: text + f"\nEXTRA_{round_} = {round_}\n")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def _replace_line(text: str, index: int, line: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[index] = line + "\n"
    return "".join(lines)


def _in_process(directory: str, files: Dict[str, str], repeat: int) -> List[float]:
    """The run alone: `lint_open_files` on the same buffers, a line of the trainer changed each time."""
    from fsdp_lint.frontends.server.workspace import OpenFile, lint_open_files

    cache = tempfile.mkdtemp(prefix="fsdp-lint-bench-")
    middle = len(files["train.py"].splitlines()) // 2
    found = []
    for round_ in range(repeat + 1):
        texts = dict(files, **{"train.py": _replace_line(files["train.py"], middle, f"MAGIC_{round_} = {round_}")})
        open_files = [OpenFile(name, os.path.join(directory, name), round_, text) for name, text in texts.items()]
        started = time.perf_counter()
        lint_open_files(open_files, [directory], cache)
        found.append(time.perf_counter() - started)
    return found[1:]  # the first is cold


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--lines", type=int, default=1000)
    args = parser.parse_args(argv)
    from fsdp_lint.frontends.server.wiring import DEBOUNCE_S

    with tempfile.TemporaryDirectory(prefix="fsdp-lint-server-bench-") as directory:
        files = _project(directory, args.lines)
        times = asyncio.run(_measure(directory, files, args.repeat))
        times["run alone (in process)"] = _in_process(directory, files, args.repeat)
    lines = files["train.py"].count("\n")
    print(f"fsdp-lint server: didChange -> publishDiagnostics, {lines}-line trainer, {args.repeat} edits each (quiet spell after edits during a run: {DEBOUNCE_S * 1000:.0f} ms)")
    print(f"{'':24} {'median s':>9} {'p90 s':>7} {'min s':>7} {'max s':>7}")
    for label, values in times.items():
        ordered = sorted(values)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        print(f"{label:24} {statistics.median(values):9.3f} {p90:7.3f} {ordered[0]:7.3f} {ordered[-1]:7.3f}")
    worst = max(statistics.median(values) for label, values in times.items() if label not in ("open (cold)", "run alone (in process)"))
    print(f"target <= {TARGET_S} s after an edit (median): {'met' if worst <= TARGET_S else 'missed'} ({worst:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
