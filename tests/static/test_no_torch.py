"""The static linter must run where torch is not installed (a lint-only CI job)."""

from __future__ import annotations

from tests.static.helpers import run_subprocess, write_tree

BLOCK_TORCH = """
import sys
class _NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("torch is not installed in this environment")
        return None
sys.meta_path.insert(0, _NoTorch())
"""


def test_lints_without_torch_and_never_imports_it(tmp_path):
    write_tree(tmp_path, {"train.py": "import torch\nfrom torch.distributed.fsdp import fully_shard\nfully_shard(model)\nmodel.forward(x)\n"})
    check = BLOCK_TORCH + "\nimport atexit\natexit.register(lambda: sys.modules.get('torch') and sys.stderr.write('TORCH IMPORTED'))\n"
    run = run_subprocess([str(tmp_path)], prelude=check)
    assert run.code == 1, run.err
    assert "FSD201" in run.out
    assert "TORCH IMPORTED" not in run.err
    for command in (["rules"], ["rule", "FSD201"]):
        assert run_subprocess(command, prelude=check).code == 0
