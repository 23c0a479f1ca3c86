"""A relint of an unchanged tree answers from the cache's first record: it imports no analysis
(astroid, the facts, the rules, an output format it does not print), stats the files whose status
vouches for the hash the cache recorded instead of reading them, and prints what a cold run
prints. An edit is caught however it hides: same size, modification time put back, or made in the
same clock tick as the run that stored the cache."""

from __future__ import annotations

import os
import re
import time

import pytest

from fsdp_lint.engine import cache
from tests.static.helpers import run_cli, run_subprocess, write_tree

TREE = {
    "pkg/__init__.py": "",
    "pkg/parallel.py": "from torch.distributed.fsdp import fully_shard\n\n\ndef apply(model):\n    fully_shard(model)\n",
    "pkg/train.py": "from pkg.parallel import apply\n\nmodel = Net()\napply(model)\nmodel.forward(x)\n",
    "pkg/data.py": "def batches():\n    return []\n",
}
# The same number of bytes, and no finding: `fxrward` is no forward.
EDITED = ("model.forward(x)", "model.fxrward(x)")

# Printed by the subprocess at exit: every module it imported.
MODULES = "import atexit, sys\natexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n'))\n"


def _lint(tmp_path, *flags: str):
    return run_cli([str(tmp_path / "pkg"), "--isolated", "--format", "concise", *flags])


def _imported(err: str) -> set:
    return set(err.rsplit("MODULES ", 1)[1].split())


def test_a_warm_run_imports_no_analysis_and_prints_what_a_cold_run_prints(tmp_path):
    write_tree(tmp_path, TREE)
    args = [str(tmp_path / "pkg"), "--isolated", "--format", "concise", "--cache-dir", str(tmp_path / "cache")]
    cold = run_subprocess(args, prelude=MODULES)
    warm = run_subprocess(args, prelude=MODULES)
    assert "FSD201" in cold.out
    assert (warm.code, warm.out) == (cold.code, cold.out)
    assert "astroid" in _imported(cold.err)  # the check below can fail: a run that analyses imports it
    imported = _imported(warm.err)
    heavy = {
        module for module in imported
        if module.split(".")[0] in ("astroid", "torch")
        or module.startswith(("fsdp_lint.rules.", "fsdp_lint.engine.tree_analysis", "fsdp_lint.engine.analysed_run", "fsdp_lint.analysis.flow"))
        or module in ("fsdp_lint.engine.rule", "fsdp_lint.frontends.output.sarif", "fsdp_lint.frontends.output.json_format", "tomllib")
    }
    assert heavy == set()


def test_a_status_that_vouches_for_a_file_saves_reading_it(tmp_path, monkeypatch):
    """With the clock's margin out of the way (`SETTLED_NS`), the files of a run that stored the
    cache are statted, not read, by the next; a run that had to read them (none vouched for)
    records their statuses when the cache answers it, as after CI restores a cache."""
    write_tree(tmp_path, TREE)
    cache_dir = ("--cache-dir", str(tmp_path / "cache"), "-v")
    cold = _lint(tmp_path, *cache_dir)
    assert "files unchanged by their status" not in cold.err  # nothing to compare against
    assert re.search(r"cache: 0 of 4 files unchanged by their status, 4 read", _lint(tmp_path, *cache_dir).err)  # just written
    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    first = _lint(tmp_path, *cache_dir)
    assert "cache: 0 of 4 files unchanged by their status, 4 read" in first.err and "no file changed" in first.err
    second = _lint(tmp_path, *cache_dir)
    assert "cache: 4 of 4 files unchanged by their status, 0 read" in second.err and "no file changed" in second.err
    assert second.out == cold.out


@pytest.mark.parametrize("settled_ns", [0, cache.SETTLED_NS])
def test_an_edit_that_keeps_the_size_and_the_modification_time_is_caught(tmp_path, monkeypatch, settled_ns):
    """`touch -d`/`os.utime` put the modification time back, but not the change time. With the
    default margin the edit also falls in the clock tick of the run that stored the cache."""
    monkeypatch.setattr(cache, "SETTLED_NS", settled_ns)
    write_tree(tmp_path, TREE)
    cache_dir = ("--cache-dir", str(tmp_path / "cache"))
    before = _lint(tmp_path, *cache_dir)
    assert "FSD201" in before.out
    path = tmp_path / "pkg" / "train.py"
    status = os.stat(path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(*EDITED), encoding="utf-8")
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (status.st_size, status.st_mtime_ns)
    warm = _lint(tmp_path, *cache_dir)
    assert warm.out == _lint(tmp_path, "--no-cache").out
    assert "FSD201" not in warm.out


def test_a_file_changed_just_before_the_run_vouches_for_nothing(tmp_path):
    """The file system keeps time in ticks: a write just after a run read a file can leave its
    status as it was, so a status taken within `SETTLED_NS` of the run's first read is not kept."""
    path = tmp_path / "train.py"
    path.write_text("x = 1\n", encoding="utf-8")
    now = time.time_ns()
    assert cache.file_status(str(path), now) is None
    status = os.stat(path)
    assert cache.file_status(str(path), now + 2 * cache.SETTLED_NS) == (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
    assert cache.file_status(str(tmp_path / "gone.py"), now + 2 * cache.SETTLED_NS) is None
