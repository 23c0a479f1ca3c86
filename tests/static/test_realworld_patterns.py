"""Patterns rebuilt (in our own words) from real FSDP2 code bases where a rule once raised a false
alarm or the analysis failed; each must stay silent (or, where marked, keep finding the real bug).
benchmarks/REALWORLD.md says where each one came from."""

from __future__ import annotations

import textwrap
from typing import Dict, Tuple

import pytest

from fsdp_lint.engine.lint import LintOptions, lint_sources
from fsdp_lint.selection import Selection


def lint(files: Dict[str, str], codes: Tuple[str, ...]) -> list:
    sources = {path: textwrap.dedent(text) for path, text in files.items()}
    result = lint_sources(sources, LintOptions(selection=Selection(codes)))
    assert not result.internal_errors, result.internal_errors[0].trace
    return [(v.path, v.line, v.code) for v in result.violations]


SILENT = {
    # composer: rank 0 reads the full state dict of its still-unsharded model, then every rank
    # shards and receives it by broadcast.
    "full-state-dict-of-unsharded-model-on-rank-0": (
        {
            "pkg/__init__.py": "",
            "pkg/fsdp2.py": """
                from torch.distributed.fsdp import fully_shard

                def _recurse(root, module):
                    for child in module.children():
                        _recurse(root, child)
                    fully_shard(module)

                def prepare(model):
                    _recurse(model, model)
                """,
            "pkg/parallel.py": """
                import torch.distributed as dist
                from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
                from pkg.fsdp2 import prepare

                def parallelize(model):
                    full = {}
                    if dist.get_rank() == 0:
                        full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
                    prepare(model)
                    return full
                """,
        },
        ("FSD206",),
    ),
    # composer: a trainer's State object (not a module) with its own state_dict method.
    "state-dict-of-a-non-module-class": (
        {
            "state.py": """
                import torch
                from torch.distributed.fsdp import fully_shard

                class State:
                    def __init__(self, model):
                        self.model = model

                    def shard(self):
                        fully_shard(self.model)

                    def state_dict(self):
                        return {"step": 1}

                def save(path):
                    state = State(Model())
                    torch.save(state.state_dict(), path)
                """,
        },
        ("FSD301",),
    ),
    # accelerate: FSDP1's context manager chosen by a conditional expression on the version that
    # also chose, in another function, between `fully_shard` and the FSDP1 wrapper.
    "fsdp1-api-in-a-version-conditional-expression": (
        {
            "save.py": """
                from contextlib import nullcontext
                from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, fully_shard

                def prepare(model, plugin):
                    if plugin.fsdp_version == 2:
                        fully_shard(model)
                        return model
                    return FSDP(model)

                def save(model, plugin):
                    model = prepare(model, plugin)
                    ctx = FSDP.state_dict_type(model, plugin.kind) if plugin.fsdp_version == 1 else nullcontext()
                    with ctx:
                        return model.state_dict()
                """,
        },
        ("FSD203",),
    ),
    # composer: an FSDP1-only helper whose parameter receives a model that is FSDP2-sharded on
    # other paths; its only caller guards the call with an FSDP1 test.
    "fsdp1-helper-called-under-a-guard": (
        {
            "state.py": """
                from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, fully_shard

                def state_dict_context(module, kind):
                    return FSDP.state_dict_type(module, kind)

                class Trainer:
                    def setup(self):
                        fully_shard(self.model)

                    def load(self, sd):
                        if self.fsdp1_enabled:
                            with state_dict_context(self.model, "full"):
                                self.model.load_state_dict(sd)
                """,
        },
        ("FSD203",),
    ),
    # verl: the module is FSDP1-wrapped or FSDP2-sharded by the strategy; FSDP1's API is called
    # under a helper that returns the version by the module's class, and under `isinstance`.
    "fsdp1-api-under-a-helper-that-returns-the-version": (
        {
            "fsdp_utils.py": """
                from torch.distributed.fsdp import FSDPModule
                from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

                def fsdp_version(model):
                    if isinstance(model, FSDP):
                        return 1
                    elif isinstance(model, FSDPModule):
                        return 2
                    else:
                        return 0
                """,
            "engine.py": """
                import torch
                from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType, fully_shard
                from fsdp_utils import fsdp_version

                class Engine:
                    def build(self, module):
                        if self.config.strategy == "fsdp":
                            module = FSDP(module, use_orig_params=True)
                        elif self.config.strategy == "fsdp2":
                            for block in module.layers:
                                fully_shard(block)
                            fully_shard(module)
                        else:
                            raise NotImplementedError(self.config.strategy)
                        if torch.distributed.get_world_size() == 1 and fsdp_version(module) == 1:
                            FSDP.set_state_dict_type(module, state_dict_type=StateDictType.FULL_STATE_DICT)
                        elif fsdp_version(module) == 1:
                            FSDP.set_state_dict_type(module, state_dict_type=StateDictType.SHARDED_STATE_DICT)
                        if isinstance(module, FSDP):
                            module.clip_grad_norm_(1.0)
                        return module
                """,
        },
        ("FSD203",),
    ),
}


@pytest.mark.parametrize("files, codes", list(SILENT.values()), ids=list(SILENT))
def test_real_world_pattern_is_silent(files, codes):
    assert lint(files, codes) == []


def test_module_level_functions_of_packages_resolve():
    """Calls between functions of one module inside a package (`pkg.mod.helper`) apply the callee's
    summary: the helper's sharding is seen at the call (it used to be lost for dotted module names)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": """
            from torch.distributed.fsdp import fully_shard

            def helper(model):
                fully_shard(model)
                return model

            def main():
                model = helper(Model())
                model.forward(1)
            """,
    }
    assert lint(files, ("FSD201",)) == [("pkg/mod.py", 10, "FSD201")]


def test_version_conditional_import_of_fully_shard_resolves():
    """verl imports `fully_shard` from the path of the installed torch version, with a `None`
    fallback; the name must still resolve, or nothing in such a tree counts as sharded."""
    files = {
        "utils.py": """
            import torch
            from packaging import version

            if version.parse(torch.__version__) >= version.parse("2.6"):
                from torch.distributed.fsdp import fully_shard
            elif version.parse(torch.__version__) >= version.parse("2.4"):
                from torch.distributed._composable.fsdp import fully_shard
            else:
                fully_shard, FSDPModule = None, None

            def apply_fsdp2(model):
                for block in model.layers:
                    fully_shard(block)
                fully_shard(model)
            """,
        "trainer.py": """
            from utils import apply_fsdp2

            class Trainer:
                def build(self):
                    apply_fsdp2(self.model)
                    self.fsdp_model = self.model

                def step(self):
                    return self.fsdp_model.clip_grad_norm_(1.0)

                def fit(self):
                    self.build()
                    self.step()
            """,
    }
    assert lint(files, ("FSD203",)) == [("trainer.py", 10, "FSD203")]
