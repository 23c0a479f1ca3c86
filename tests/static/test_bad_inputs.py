"""Files that cannot be analysed: one FSD001 each, at the right line, and the run goes on."""

from __future__ import annotations

import json
import os

import pytest

from tests.static.helpers import run_cli, write_tree

BYPASS = "from torch.distributed.fsdp import fully_shard\nfully_shard(model)\nmodel.forward(x)\n"


def lint_json(path):
    run = run_cli(["--format", "json", str(path)])
    return run, json.loads(run.out)


@pytest.mark.parametrize(
    "content, line, reason",
    [
        (b"def f(:\n    pass\n", 1, "syntax error"),
        (b"x = 1\n\ny = (\n", 3, "syntax error"),
        (b"x = 1\ny = '\xff\xfe'\n", 2, "not valid utf-8"),
        (b"# -*- coding: ascii -*-\nx = '\xc3\xa9'\n", 2, "not valid ascii"),
        (b"# -*- coding: nonsense -*-\nx = 1\n", 1, "unknown encoding"),
        (b"x = 1\ny = 2\x00\n", 2, "NUL bytes"),
        (b"x = " + b"(" * 3000 + b"1" + b")" * 3000 + b"\n", 1, "nest"),
    ],
)
def test_unanalysable_file_gets_one_fsd001_and_the_run_goes_on(tmp_path, content, line, reason):
    (tmp_path / "broken.py").write_bytes(content)
    write_tree(tmp_path, {"good.py": BYPASS})
    run, records = lint_json(tmp_path)
    assert "Traceback" not in run.out + run.err
    broken = [r for r in records if r["path"].endswith("broken.py")]
    assert len(broken) == 1 and broken[0]["code"] == "FSD001"
    assert broken[0]["line"] == line
    assert reason.lower() in broken[0]["message"].lower()
    assert any(r["code"] == "FSD201" and r["path"].endswith("good.py") for r in records)


def test_encodings_that_python_accepts_are_read(tmp_path):
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + BYPASS.encode())
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\n" + b"s = '\xe9'\n" + BYPASS.encode())
    (tmp_path / "crlf.py").write_bytes(BYPASS.replace("\n", "\r\n").encode())
    _, records = lint_json(tmp_path)
    assert sorted((os.path.basename(r["path"]), r["code"], r["line"]) for r in records) == [
        ("bom.py", "FSD201", 3), ("crlf.py", "FSD201", 3), ("latin.py", "FSD201", 5),
    ]


def test_broken_symlink_and_directory_named_like_a_module(tmp_path):
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "pkg.py").mkdir()
    write_tree(tmp_path, {"pkg.py/inner.py": BYPASS})
    run, records = lint_json(tmp_path)
    assert run.code == 1
    by_name = {os.path.basename(r["path"]): r for r in records}
    assert by_name["dangling.py"]["code"] == "FSD001" and "broken symbolic link" in by_name["dangling.py"]["message"]
    assert by_name["inner.py"]["code"] == "FSD201"


def test_empty_and_comment_only_files_are_clean(tmp_path):
    write_tree(tmp_path, {"empty.py": "", "comments.py": "# just a comment\n# another\n"})
    run, records = lint_json(tmp_path)
    assert run.code == 0 and records == []


def test_a_crashing_rule_is_reported_and_the_others_still_run(tmp_path, monkeypatch):
    from fsdp_lint.engine.registry import all_rules

    def explode(self, node, flow):
        raise ValueError("boom")

    monkeypatch.setattr(all_rules()["FSD201"], "on_call", explode)
    write_tree(tmp_path, {"a.py": BYPASS + "import torch\ntorch.save(model.state_dict(), 'x.pt')\n"})
    run = run_cli(["--format", "json", str(tmp_path)])
    assert run.code == 2
    assert [r["code"] for r in json.loads(run.out)] == ["FSD301"]
    assert "internal error in rule FSD201 (forward-bypass): ValueError: boom" in run.err
    assert "please report it" in run.err and "a.py" in run.err
