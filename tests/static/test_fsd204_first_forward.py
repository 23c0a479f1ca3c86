"""FSD204's boundary for dtype casts is the module's first forward, not `fully_shard`: until then
FSDP's lazy initialisation adopts the parameters as they are (torch 2.13: a cast there trains
exactly as the same cast before sharding), afterwards the next all-gather fails. `param.data = ...`
and new `nn.Parameter`s are lost or unmanaged before the first forward too, so they are reported
from `fully_shard` on. The forward may run in a callee, in a caller, or in another method."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from fsdp_lint.engine.lint import LintOptions, lint_paths, lint_sources

HEADER = "import torch\nfrom torch import nn\nfrom torch.distributed.fsdp import fully_shard\n"
SCENARIOS = Path(__file__).parents[1] / "runtime" / "scenarios.py"


def _fsd204(files: Dict[str, str]) -> List[Tuple[str, int]]:
    result = lint_sources({path: HEADER + textwrap.dedent(text) for path, text in files.items()}, LintOptions())
    assert not result.internal_errors, result.internal_errors[0].trace
    return sorted((v.path, v.line) for v in result.violations if v.code == "FSD204")


REPORTED = {
    "a cast after a training step": """
        def main(model, batch):
            fully_shard(model)
            model(batch).sum().backward()
            model.to(torch.bfloat16)  # here
        """,
    "a block cast after the root's forward": """
        def main(model, batch):
            for block in model.layers:
                fully_shard(block)
            fully_shard(model)
            model(batch)
            model.layers[0].half()  # here
        """,
    "a cast at the top of a loop whose body trains (its second iteration)": """
        def main(model, loader, dtypes):
            fully_shard(model)
            for dtype, batch in zip(dtypes, loader):
                model.to(dtype)  # here
                model(batch).sum().backward()
        """,
    "a cast after a helper that shards and runs a warm-up forward": """
        def build(model, batch):
            fully_shard(model)
            model(batch)
            return model

        def main(m, batch):
            model = build(m, batch)
            model.half()  # here
        """,
    "a cast in a method, after another method ran the stored model": """
        class Trainer:
            def __init__(self, model):
                fully_shard(model)
                self.model = model

            def step(self, batch):
                self.model(batch).sum().backward()

            def to_bf16(self):
                self.model.to(torch.bfloat16)  # here

        def main(model, batch):
            trainer = Trainer(model)
            trainer.step(batch)
            trainer.to_bf16()
        """,
    "`param.data = ...` before the first forward (silently lost)": """
        def main(model):
            fully_shard(model)
            for p in model.parameters():
                p.data = p.data * 2  # here
        """,
    "a new `nn.Parameter` before the first forward (never managed)": """
        def main(model):
            fully_shard(model)
            model.scale = nn.Parameter(torch.ones(4))  # here
        """,
}

SILENT = {
    "a cast between `fully_shard` and the first forward": """
        def main(model, batch):
            fully_shard(model)
            model.to(torch.bfloat16)
            model(batch).sum().backward()
        """,
    "a forward before `fully_shard`, the cast after it": """
        def main(model, batch):
            model(batch)
            fully_shard(model)
            model.half()
        """,
    "the forward and the cast on exclusive arms": """
        def main(model, batch, warm_up):
            fully_shard(model)
            if warm_up:
                model(batch)
            else:
                model.half()
        """,
    "a forward of another module": """
        def main(model, teacher, batch):
            fully_shard(model)
            teacher(batch)
            model.half()
        """,
    "a cast in a method called before the method that runs the model": """
        class Trainer:
            def __init__(self, model):
                fully_shard(model)
                self.model = model

            def step(self, batch):
                self.model(batch).sum().backward()

            def to_bf16(self):
                self.model.to(torch.bfloat16)

        def main(model, batch):
            trainer = Trainer(model)
            trainer.to_bf16()
            trainer.step(batch)
        """,
    "a helper no caller in the tree reaches (what ran before is unknown)": """
        def to_bf16(model, batch):
            model(batch)
            model.to(torch.bfloat16)
        """,
}


@pytest.mark.parametrize("source", REPORTED.values(), ids=list(REPORTED))
def test_reported(source: str) -> None:
    lines = [n for n, line in enumerate((HEADER + textwrap.dedent(source)).splitlines(), start=1) if line.endswith("# here")]
    assert _fsd204({"f.py": source}) == [("f.py", line) for line in lines]


@pytest.mark.parametrize("source", SILENT.values(), ids=list(SILENT))
def test_silent(source: str) -> None:
    assert _fsd204({"f.py": source}) == []


def test_the_forward_in_a_caller_crosses_into_the_helper_that_casts() -> None:
    """The helper casts what its caller hands it: reported in the call made after a training step,
    not in the one made before the first forward."""
    helper = """
        def set_param_dtype(model, dtype):
            model.to(dtype)
        """
    trained = """
        from helper import set_param_dtype

        def main(model, batch):
            fully_shard(model)
            model(batch).sum().backward()
            set_param_dtype(model, torch.bfloat16)
        """
    fresh = """
        from helper import set_param_dtype

        def main(model, batch):
            fully_shard(model)
            set_param_dtype(model, torch.bfloat16)
            model(batch).sum().backward()
        """
    assert _fsd204({"helper.py": helper, "train.py": trained}) == [("helper.py", 6)]
    assert _fsd204({"helper.py": helper, "train.py": fresh}) == []


def test_the_runtime_scenarios_get_the_static_verdict_the_runtime_check_gives() -> None:
    """tests/runtime/scenarios.py runs on 2 gloo ranks: the runtime FSD204 fires in `fsd204_recast`
    (a cast after the first forward) and `fsd204_replaced`, not in
    `clean_recast_before_first_forward` (a cast between `fully_shard` and the first forward)."""
    result = lint_paths([str(SCENARIOS)], LintOptions(noqa=False))
    assert not result.internal_errors
    functions = [node for node in ast.parse(SCENARIOS.read_text(encoding="utf-8")).body if isinstance(node, ast.FunctionDef)]

    def enclosing(line: int) -> str:
        return next(f.name for f in functions if f.lineno <= line <= (f.end_lineno or f.lineno))

    assert sorted(enclosing(v.line) for v in result.violations if v.code == "FSD204") == ["fsd204_recast", "fsd204_replaced"]
