"""A cached answer is the answer a cold run gives: on a tree large enough for the rule pass to run
in forked workers, each kind of input a result depends on is edited in turn (a module a rule reads,
a module the analysis enters on demand, the linted file, pyproject.toml, a rule's option), and the
run that may answer from the cache must print exactly what `--no-cache` prints, with one process
and with two. Also: module names, the options' fingerprint, and the rule pass parsing nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, List, Tuple

import pytest
from astroid import nodes

from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.walk_records import WalkRecords
from fsdp_lint.engine import parallel
from fsdp_lint.engine.rule import Rule
from fsdp_lint.engine.tree_analysis import RuleConfig, SourceTree, analyse_tree
from tests.static.helpers import run_cli, run_subprocess, write_tree

# Relevant files long enough, together, for the rule pass to fork (`parallel.MIN_LINES`); their
# lines are a docstring, which costs the parser almost nothing.
PADDING_FILES = 4
PADDING = '"""' + "\n" * (parallel.MIN_LINES // PADDING_FILES + 1) + '"""\n'

TRAIN = '''\
import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

import setup_utils
from inspect_utils import peek
from policies import BF16, FP16


def main():
    dist.init_process_group("nccl")
    model = Transformer()
    optimizer = torch.optim.AdamW(model.parameters())
    for block in model.layers:
        fully_shard(block, mp_policy=FP16)
    fully_shard(model, mp_policy=BF16)
    peek(model, torch.ones(1))
    model, optimizer = wrap_for_training(model, optimizer)


if __name__ == "__main__":
    main()
'''

TREE = {
    **{f"pad_{i}.py": PADDING + f"from torch.distributed.fsdp import fully_shard\n\n\ndef shard_{i}(m):\n    fully_shard(m)\n" for i in range(PADDING_FILES)},
    "train.py": TRAIN,
    # Read by FSD106 only: it selects the GPU when train.py imports it.
    "setup_utils.py": "import os\nimport torch\n\ntorch.cuda.set_device(int(os.environ['LOCAL_RANK']))\n",
    # Read by FSD107 only: the policies train.py passes.
    "policies.py": (
        "import torch\nfrom torch.distributed.fsdp import MixedPrecisionPolicy\n\n"
        "BF16 = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)\n"
        "FP16 = MixedPrecisionPolicy(param_dtype=torch.float16, reduce_dtype=torch.float32)\n"
    ),
    # Entered by the analysis because the sharded model is passed to it.
    "inspect_utils.py": "def peek(model, x):\n    return model(x)\n",
    "pyproject.toml": "[tool.fsdp-lint]\n",
}


def _replace(path: str, old: str, new: str) -> Callable[[object], None]:
    def edit(root) -> None:
        text = (root / path).read_text(encoding="utf-8")
        assert old in text, (path, old)
        (root / path).write_text(text.replace(old, new), encoding="utf-8")

    return edit


EDITS: List[Tuple[str, Callable[[object], None]]] = [
    ("a module a rule reads (FSD106)", _replace("setup_utils.py", "torch.cuda.set_device(int(os.environ['LOCAL_RANK']))\n", "")),
    ("a module a rule reads (FSD107)", _replace("policies.py", "param_dtype=torch.bfloat16", "param_dtype=torch.float16")),
    ("a module the analysis enters", _replace("inspect_utils.py", "model(x)", "model.forward(x)")),
    ("the linted file", _replace("train.py", "    peek(model, torch.ones(1))\n", "    model.forward(torch.ones(1))\n")),
    ("pyproject.toml", _replace("pyproject.toml", "[tool.fsdp-lint]\n", '[tool.fsdp-lint]\nper-file-ignores = { "train.py" = ["FSD201"] }\n')),
    ("a rule option", _replace("pyproject.toml", "] }\n", '] }\n\n[tool.fsdp-lint.rules.FSD202]\nextend-remapping-calls = ["wrap_for_training"]\n')),
]


def _lint(jobs: int, *flags: str) -> Tuple[int, str]:
    run = run_cli([".", "--jobs", str(jobs), "--format", "concise", *flags])
    assert run.code in (0, 1), run.err
    return run.code, run.out


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_input_of_a_result_is_in_its_cache_key(tmp_path, monkeypatch, jobs):
    tree = tmp_path / "tree"
    write_tree(tree, TREE)
    monkeypatch.chdir(tree)
    forks: List[int] = []
    forked = parallel._forked
    monkeypatch.setattr(parallel, "_forked", lambda *args: forks.append(1) or forked(*args))
    cache = ("--cache-dir", str(tmp_path / "cache"))
    previous = _lint(jobs, *cache)
    assert previous == _lint(jobs, "--no-cache")
    for kind, edit in EDITS:
        edit(tree)
        warm = _lint(jobs, *cache)
        cold = _lint(jobs, "--no-cache")
        assert warm == cold, f"after editing {kind}: the cache answered\n{warm[1]}\nbut a cold run finds\n{cold[1]}"
        assert cold != previous, f"editing {kind} changed no finding: the step tests nothing"
        previous = cold
    assert bool(forks) == (jobs > 1)  # with two processes the rule pass did fork


def test_a_package_made_above_the_linted_directory_renames_its_modules(tmp_path, monkeypatch):
    """Module names come from the `__init__.py` files above a file too, which need not be linted:
    `pkg/__init__.py` turns `sub.train` into `pkg.sub.train`, and the absolute import resolves."""
    write_tree(tmp_path, {
        "pkg/sub/__init__.py": "",
        "pkg/sub/parallel.py": "from torch.distributed.fsdp import fully_shard\n\n\ndef apply(model):\n    fully_shard(model)\n",
        "pkg/sub/train.py": "from pkg.sub.parallel import apply\n\nmodel = Net()\napply(model)\nmodel.forward(x)\n",
    })
    monkeypatch.chdir(tmp_path)
    cache = ("--cache-dir", str(tmp_path / "cache"))
    assert run_cli(["pkg/sub", *cache]).code == 0
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    cold = run_cli(["pkg/sub", "--no-cache", "--format", "concise"])
    assert "FSD201" in cold.out
    assert run_cli(["pkg/sub", *cache, "--format", "concise"]).out == cold.out


def test_a_run_in_a_new_process_finds_the_cache_of_the_last(tmp_path):
    """The options are part of the cache's name: written with sets, whose order changes from one
    interpreter to the next, two runs with the same configuration used two caches."""
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.fsdp-lint.analysis]\nextra-shard-functions = ["lib.a.shard", "lib.b.shard", "lib.c.shard"]\n',
        "train.py": "model = Net()\n",
    })
    for seed in ("1", "2"):
        run = run_subprocess([".", "-v"], cwd=str(tmp_path), env={"PYTHONHASHSEED": seed})
    assert "cache: no file changed since the last run" in run.err, run.err


class _ReadsAnotherModule(Rule):
    """A rule that reads a module of the tree for itself, as FSD106 and FSD107 once did."""

    code = "FSD999"
    name = "reads-another-module"
    severity = "error"
    message = "read it"
    help = ""

    def on_call(self, node: nodes.Call, flow: Flow) -> None:
        if flow.project.module("helpers") is not None:
            self.report(node)


_READS_HELPERS = SourceTree(
    {"train.py": "from torch.distributed.fsdp import fully_shard\nimport helpers\n\n\ndef main(model):\n    fully_shard(model)\n", "helpers.py": "x = 1\n"},
    {"train.py": "train", "helpers.py": "helpers"},
)


def test_the_rule_pass_parses_nothing(monkeypatch):
    """A module a rule needs is parsed before the rule pass or not at all: a parse inside it (in a
    forked worker, an input the cache never learns of) is an internal error, never a silent one.
    (Here the rules hear no walk of the facts, and the rule pass walks `main` itself.)"""
    monkeypatch.setattr(WalkRecords, "listen", property(lambda self: None, lambda self, listen: None), raising=False)
    analysis = analyse_tree(_READS_HELPERS, RuleConfig((_ReadsAnotherModule,), (), True), frozenset({"train.py"}))
    assert not analysis.findings.violations
    [error] = analysis.findings.internal_errors
    assert "ParseDuringRulePass: module helpers (helpers.py) was not parsed before the rule pass" in error.error
    assert "helpers.py" not in analysis.parsed


def test_a_parse_by_a_rule_in_a_walk_of_the_facts_is_an_input_of_the_analysis():
    """The rules listen to the walks of the facts too (the rule pass takes those walks): a module a
    rule parses there is parsed before the rule pass, in this process, and counts among the files
    the analysis read, so a cached result goes stale when it changes."""
    analysis = analyse_tree(_READS_HELPERS, RuleConfig((_ReadsAnotherModule,), (), True), frozenset({"train.py"}))
    assert [v.code for v in analysis.findings.violations] == ["FSD999"] and not analysis.findings.internal_errors
    assert "helpers.py" in analysis.parsed


def test_the_engine_itself_parses_nothing_in_the_rule_pass(tmp_path):
    """Which classes a framework drives is decided with the facts: a class whose base lives in a
    module nothing else needed (`base.py`) was resolved in the rule pass, and the refused parse
    stopped the whole run."""
    write_tree(tmp_path, {
        "base.py": "class Base:\n    def helper(self):\n        return 1\n",
        "model.py": (
            "from torch.distributed.fsdp import fully_shard\n\nfrom base import Base\n\n\n"
            "class Wrapper(Base):\n    def __init__(self, model):\n        self.model = model\n        fully_shard(model)\n"
        ),
    })
    for jobs in (1, 2):
        result = run_cli([str(tmp_path), "--isolated", "--no-cache", "--jobs", str(jobs)])
        assert (result.code, result.out.strip(), result.err) == (0, "All checks passed.", "")


def test_an_environment_variable_written_in_a_file_the_analysis_never_reads_is_an_input(tmp_path, monkeypatch):
    """A variable some file of the tree writes is no input of the run (`analysis.environment`),
    and that file need not be one the analysis reads: a launcher that sets `FSDP_VERSION` changes
    what the two reads of it in the trainer may give, so the cached analysis must not answer."""
    corpus = Path(__file__).parents[1] / "static" / "corpus" / "environment__fsdp_version_read_in_two_modules_clean"
    write_tree(tmp_path / "tree", {path.name: path.read_text(encoding="utf-8") for path in corpus.glob("*.py")})
    monkeypatch.chdir(tmp_path / "tree")
    cache = ("--cache-dir", str(tmp_path / "cache"))
    before = _lint(1, *cache)
    assert before == _lint(1, "--no-cache") and before[0] == 0
    (tmp_path / "tree" / "launch.py").write_text('import os\n\nos.environ["FSDP_VERSION"] = os.environ.get("JOB_FSDP", "1")\n', encoding="utf-8")
    cold = _lint(1, "--no-cache")
    assert cold != before, "writing the variable changed no finding: the step tests nothing"
    assert _lint(1, *cache) == cold
