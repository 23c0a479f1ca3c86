"""The analysis' semantics, mechanism by mechanism (issue 12), each shown on a small program in the
shape real training code has and on its clean look-alike: paths, calling contexts, recursion,
loops over several modules, values bound on several branches, constant flags, the chain a
cross-function finding carries, and findings that do not depend on the order code is written in.
The larger programs are in tests/static/corpus/."""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path
from typing import Dict, List, Tuple

import jsonschema
import pytest

from fsdp_lint.engine.lint import LintOptions, lint_sources
from fsdp_lint.frontends.output import sarif

SHARD = "from torch.distributed.fsdp import fully_shard\n"
# a trainer's head: a module class of the tree over `nn.Module`, and a checkpoint helper from `ckpt`
_NET_TRAINER = SHARD + """
    import torch
    from torch import nn
    from ckpt import save_checkpoint

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
"""
SCHEMA = json.loads((Path(__file__).parents[1] / "ecosystem" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def _source(text: str) -> str:
    """A file's text: `SHARD` (flush left) may stand before an indented literal."""
    if text.startswith(SHARD):
        return SHARD + textwrap.dedent(text[len(SHARD):])
    return textwrap.dedent(text)


def _lint(files: Dict[str, str]) -> List[Tuple[str, int, str]]:
    result = lint_sources({path: _source(text) for path, text in files.items()}, LintOptions())
    assert not result.internal_errors, result.internal_errors[0].trace
    return sorted((v.path, v.line, v.code) for v in result.violations)


def test_methods_recursing_through_one_another_over_children_settle(monkeypatch):
    """Four methods of a unit planner call one another over `module.children()` (LoongForge's
    `_FSDPWrapPlanner`): each level and each loop pass named new descendants, and the cycle's
    summaries grew by thousands of events a round without settling (the run never ended). A
    summary past `_MAX_EVENTS` is unknown code to its callers, so the events a walk maps from its
    callees' summaries stay bounded."""
    from fsdp_lint.analysis import flow

    mapped = []
    mapped_flags = flow._mapped_flags

    def counted(*args):
        mapped.append(None)
        assert len(mapped) < 200_000, "the cycle's summaries do not settle"
        return mapped_flags(*args)

    monkeypatch.setattr(flow, "_mapped_flags", counted)
    planner = SHARD + """
    from torch import nn

    class Planner:
        def __init__(self, mesh):
            self.mesh = mesh
            self.done = set()

        def candidate(self, module):
            if id(module) in self.done:
                return False
            if isinstance(module, nn.ModuleList):
                return self.children(module)
            self.split(module)
            fully_shard(module, mesh=self.mesh)
            self.done.add(id(module))
            return True

        def split(self, module):
            for child in module.children():
                if id(child) not in self.done:
                    self.boundary(child)

        def boundary(self, module):
            if isinstance(module, nn.ModuleList):
                return self.children(module)
            return self.candidate(module)

        def children(self, module):
            wrapped = False
            for child in module.children():
                wrapped = self.boundary(child) or wrapped
            return wrapped

    def wrap(model, mesh):
        Planner(mesh).candidate(model)
        return model
    """
    train = """
    import torch
    from planner import wrap

    def main(model, mesh):
        model = wrap(model, mesh)
        optimizer = torch.optim.AdamW(model.parameters())
        model(torch.randn(2, 8)).sum().backward()
        optimizer.step()
    """
    assert _lint({"planner.py": planner, "train.py": train}) == []


def test_a_recursive_sharding_helper_reaches_a_fixpoint_bottom_up_is_clean():
    recursive = SHARD + """
    def shard_tree(module):
        for child in module.children():
            shard_tree(child)
        fully_shard(module)
    """
    assert _lint({"shard.py": recursive, "train.py": "from shard import shard_tree\nshard_tree(Model())\n"}) == []
    top_down = SHARD + """
    def shard_tree(module):
        fully_shard(module)
        for child in module.children():
            shard_tree(child)
    """
    # reported inside the recursive call, where a child of the sharded module is sharded
    assert _lint({"shard.py": top_down}) == [("shard.py", 4, "FSD102")]


def test_a_closure_called_in_more_contexts_than_are_kept_whole_reads_its_variables():
    """Past `_MAX_CONTEXTS` a callee's context is widened: it drops the arguments no rule orders
    by (here the closure's `epoch` and `progress`), while `Context.within` still said that `epoch`
    is `progress.epochs_run` (torchtune's checkpoint client: `_save_checkpoint_helper` reads both,
    reached from every recipe). The walk bound only what the context kept and failed on the rest
    with a KeyError, an internal error in every file of the tree."""
    ckpt = """
    import torch

    class Progress:
        def __init__(self, epochs_run):
            self.epochs_run = epochs_run

    def save(model, progress):
        epoch = progress.epochs_run

        def write():
            torch.save({"epoch": epoch, "progress": progress, "model": model.state_dict()}, "ckpt.pt")

        write()
    """
    classes = "".join(f"class Net{i}(nn.Module):\n    pass\n" for i in range(8))
    calls = "".join(f"    model = Net{i}()\n    fully_shard(model)\n    save(model, Progress({i}))\n" for i in range(8))
    train = SHARD + "from torch import nn\nfrom ckpt import Progress, save\n" + classes + "def main():\n" + calls
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == [("ckpt.py", 12, "FSD301")]


def test_each_item_of_a_loop_is_its_own_module():
    """`for m in model_parts: m.apply_fsdp()` shards each part once: the second pass over the
    body does not see its own part as sharded by the first."""
    files = {
        "model.py": SHARD + """
        class Part:
            def apply_fsdp(self):
                for block in self.blocks:
                    fully_shard(block)
                fully_shard(self.head)
                fully_shard(self)
        """,
        "parallel.py": """
        def parallelize(model_parts):
            for part in model_parts:
                part.apply_fsdp()
        """,
    }
    assert _lint(files) == []


def test_modules_named_at_run_time_are_distinct_unknown_modules():
    """Two lookups the code cannot tell apart (`getattr(model, name)`, here through one helper
    called twice) are two modules: either may be the other or inside it, neither must, so
    sharding one and then the other's blocks is no finding. The same lookup is one module."""
    helper = """
    def submodule(model, dotted):
        for part in dotted.split("."):
            model = getattr(model, part)
        return model
    """
    distinct = SHARD + """
    from lookup import submodule

    def apply_fsdp(model, cfg):
        fully_shard(submodule(model, cfg.vision))
        for block in submodule(model, cfg.text).layers:
            fully_shard(block)
        fully_shard(model)
    """
    assert _lint({"lookup.py": helper, "parallel.py": distinct}) == []
    same = SHARD + """
    from lookup import submodule

    def apply_fsdp(model, cfg):
        text = submodule(model, cfg.text)
        fully_shard(text)
        for block in text.layers:
            fully_shard(block)
        fully_shard(model)
    """
    assert _lint({"lookup.py": helper, "parallel.py": same}) == [("parallel.py", 9, "FSD102")]


def test_each_pass_of_a_loop_over_modules_takes_another_module():
    """`for m in model.modules()`: what the body did to the module of one pass (cast its
    parameters, shard it) is not done to the module of the next; done to the model before the
    loop, it is done to every one."""
    per_module = SHARD + """
    def shard_norms_fp32(model, norm_class):
        for module in model.modules():
            if isinstance(module, norm_class):
                for param in module.parameters(recurse=False):
                    param.data = param.data.float()
                fully_shard(module)
        fully_shard(model)
    """
    assert _lint({"norms.py": per_module}) == []
    root_first = SHARD + """
    def shard_norms_fp32(model, norm_class):
        fully_shard(model)
        for module in model.modules():
            if isinstance(module, norm_class):
                for param in module.parameters(recurse=False):
                    param.data = param.data.float()
    """
    assert _lint({"norms.py": root_first}) == [("norms.py", 8, "FSD204")]


def test_a_value_bound_on_several_branches_is_one_of_them_not_both():
    """`parts = [model] if single else model`: a call on `parts`' item runs once for each
    alternative, on paths of their own, never one after the other."""
    files = {
        "model.py": SHARD + """
        class Net:
            def apply_fsdp(self):
                fully_shard(self.embed)
                fully_shard(self)
        """,
        "parallel.py": """
        def parallelize(model, single):
            parts = [model] if single else model
            for part in parts:
                part.apply_fsdp()
        """,
    }
    assert _lint(files) == []


def test_a_run_that_leaves_in_an_elif_arm_does_not_reach_the_code_after_the_join():
    """`if a: ... elif b: fully_shard(m); return m`: the arms that go on are `a` and `not a,
    not b`, which share no outcome, yet neither is the run that sharded `m` and returned."""
    leaves = SHARD + """
    def parallelize(model, mesh, vision, hybrid):
        if vision:
            layers = model.language_model.layers
        elif hybrid:
            fully_shard(model, mesh=mesh)
            LEAVE
        else:
            layers = model.layers
        for layer in layers:
            fully_shard(layer, mesh=mesh)
        fully_shard(model, mesh=mesh)
        return model
    """
    assert _lint({"p.py": leaves.replace("LEAVE", "return model")}) == []
    assert _lint({"p.py": leaves.replace("LEAVE", "raise NotImplementedError(hybrid)")}) == []
    nested = SHARD + """
    def parallelize(model, mesh, vision, hybrid):
        if vision:
            layers = model.language_model.layers
        else:
            if hybrid:
                fully_shard(model, mesh=mesh)
                return model
            layers = model.layers
        for layer in layers:
            fully_shard(layer, mesh=mesh)
        fully_shard(model, mesh=mesh)
    """
    assert _lint({"p.py": nested}) == []
    # the arm falls through: its blocks are sharded after their parent
    assert _lint({"p.py": leaves.replace("LEAVE", "layers = model.blocks")}) == [("p.py", 12, "FSD102")]


def test_a_closure_runs_where_it_is_called_with_the_variables_it_reads():
    """A `def` nested in a function is followed where it is called, directly or handed on as a
    value, and sees the objects it reads from the function around it."""
    direct = SHARD + """
    from typing import cast

    def to_fsdp2(module, mesh, batch):
        def wrap(m, reshard_after_forward=None):
            fully_shard(m, mesh=mesh, reshard_after_forward=reshard_after_forward)
            return cast(object, m)

        module = wrap(module, reshard_after_forward=False)
        module(batch)
        module.half()
        return module
    """
    assert _lint({"f.py": direct}) == [("f.py", 12, "FSD204")]
    captured = SHARD + """
    def setup(model, mesh):
        def shard_blocks():
            for block in model.layers:
                fully_shard(block, mesh=mesh)

        FIRST
        SECOND
        return model
    """
    root, blocks = "fully_shard(model, mesh=mesh)", "shard_blocks()"
    assert _lint({"f.py": captured.replace("FIRST", root).replace("SECOND", blocks)}) == [("f.py", 6, "FSD102")]
    assert _lint({"f.py": captured.replace("FIRST", blocks).replace("SECOND", root)}) == []
    handed = SHARD + """
    def layerwise(model, wrapper):
        for layer in model.layers:
            wrapper(layer)
        return model

    def to_fsdp2(module, mesh, batch):
        def wrap(m):
            fully_shard(m, mesh=mesh)
            return m

        module = layerwise(module, wrap)
        module(batch)
        module.layers[0].half()
        return module
    """
    assert _lint({"f.py": handed}) == [("f.py", 15, "FSD204")]


def test_a_flag_the_caller_passes_as_a_constant_takes_one_arm():
    """`if rank0:` on a mode flag that every rank passes as True is no rank test."""
    loader = """
    import torch.distributed.checkpoint as dcp

    def load(state, path, rank0=False):
        if rank0:
            dcp.load({"args": None}, checkpoint_id=path)
            return
        dcp.load(state, checkpoint_id=path)

    def load_args(path):
        load({}, path, rank0=True)

    def resume(state, path):
        load(state, path)
    """
    assert _lint({"ckpt.py": loader}) == []


def test_a_global_bound_once_to_a_literal_is_that_constant_unless_the_tree_assigns_it():
    """`if SAVE_WITH_DCP:` of a module global bound once to True takes one arm, read in its module
    or imported from one the flows enter; where another module assigns the attribute
    (`ckpt.SAVE_WITH_DCP = False`), or a function rebinds it (`global`), the global is no
    constant and both arms stay."""
    checkpoint = """
    import torch
    import torch.distributed.checkpoint as dcp

    SAVE_WITH_DCP = True

    def save(model, path):
        if SAVE_WITH_DCP:
            dcp.save({"model": model.state_dict()}, checkpoint_id=path)
        else:
            torch.save(model.state_dict(), path)
    """
    train = SHARD + """
    import ckpt
    from torch import nn

    def main(path):
        model = nn.Linear(4, 4)
        fully_shard(model)
        ckpt.save(model, path)
    """
    assert _lint({"ckpt.py": checkpoint, "train.py": train}) == []
    assigned = train.replace("import ckpt\n", "import ckpt\n    ckpt.SAVE_WITH_DCP = False\n")
    assert _lint({"ckpt.py": checkpoint, "train.py": assigned}) == [("ckpt.py", 11, "FSD301")]
    rebound = checkpoint + """
    def use_torch_save():
        global SAVE_WITH_DCP
        SAVE_WITH_DCP = False
    """
    assert _lint({"ckpt.py": rebound, "train.py": train}) == [("ckpt.py", 11, "FSD301")]
    # imported from a module the flows enter (it shards the model); a module of constants alone,
    # which no walk needs to enter, is not parsed for them, and the arms stay open
    imported = checkpoint.replace("SAVE_WITH_DCP = True", "from parallel import SAVE_WITH_DCP")
    parallel = SHARD + """
    SAVE_WITH_DCP = True

    def shard(model):
        fully_shard(model)
        return model
    """
    sharded_there = train.replace("fully_shard(model)", "model = shard(model)").replace("import ckpt\n", "import ckpt\n    from parallel import shard\n")
    assert _lint({"ckpt.py": imported, "parallel.py": parallel, "train.py": sharded_there}) == []
    assert _lint({"ckpt.py": imported, "parallel.py": parallel.replace("SAVE_WITH_DCP = True", "SAVE_WITH_DCP = False"), "train.py": sharded_there}) == [
        ("ckpt.py", 11, "FSD301"),
    ]


def test_a_dict_literal_with_a_splat_keeps_its_named_keys_and_may_hold_more():
    """`{MODEL_KEY: sd, **extra}` names "model" (a class attribute bound once to it) and holds
    entries of keys not known besides: a loop over its items that leaves out the named ones
    saves none of them, one that tests another key may save each; an entry the `**` may replace
    may be what `extra` holds."""
    checkpoint = """
    import torch
    from torch.distributed.checkpoint.state_dict import get_model_state_dict

    class Keys:
        MODEL = "model"

    def save(model, extra, path):
        state = {Keys.MODEL: get_model_state_dict(model), **extra}
        rest = {}
        for key, value in state.items():
            if key not in [Keys.MODEL]:
                rest[key] = value
        torch.save(rest, path)
    """
    train = SHARD + """
    from torch import nn
    from ckpt import save

    def main(path, step):
        model = nn.Linear(4, 4)
        fully_shard(model)
        save(model, {"step": step}, path)
    """
    assert _lint({"ckpt.py": checkpoint, "train.py": train}) == []
    other_key = checkpoint.replace("if key not in [Keys.MODEL]:", "if key not in ['optimizer']:")
    assert _lint({"ckpt.py": other_key, "train.py": train}) == [("ckpt.py", 14, "FSD301")]
    replaced = checkpoint.replace("torch.save(rest, path)", "torch.save(state[Keys.MODEL], path)")
    assert _lint({"ckpt.py": replaced, "train.py": train}) == [("ckpt.py", 14, "FSD301")]


def test_a_dict_entry_removed_or_set_to_none_is_absent_for_later_reads():
    """`del cfg["fsdp"]`, `cfg.pop("fsdp")` and `cfg["fsdp"] = None` of a dict the walk built,
    also of an entry of one (`cfg["model"]`): a later `get("fsdp")` is None, so the model is
    not sharded; removing another key leaves the entry where it was."""
    train = SHARD + """
    import torch
    from torch import nn

    def main(path):
        cfg = {"model": {"fsdp": {"reshard": True}, "dim": 4}, "optim": {"lr": 1e-3}}
        del cfg["model"]["fsdp"]
        model = nn.Linear(4, 4)
        if cfg["model"].get("fsdp") is not None:
            fully_shard(model)
        model.load_state_dict(torch.load(path))
    """
    assert _lint({"train.py": train}) == []
    popped = train.replace('del cfg["model"]["fsdp"]', 'cfg["model"].pop("fsdp")')
    assert _lint({"train.py": popped}) == []
    stored = train.replace('del cfg["model"]["fsdp"]', 'cfg["model"]["fsdp"] = None')
    assert _lint({"train.py": stored}) == []
    other = train.replace('del cfg["model"]["fsdp"]', 'del cfg["model"]["dim"]')
    assert _lint({"train.py": other}) == [("train.py", 12, "FSD302")]
    other_popped = train.replace('del cfg["model"]["fsdp"]', 'cfg["optim"].pop("fsdp", None)')
    assert _lint({"train.py": other_popped}) == [("train.py", 12, "FSD302")]


def test_what_a_load_state_dict_loads_is_its_state_dicts_value_on_the_runs_that_load_it():
    """FSD302 asks the load: a state dict bound on two arms is the model's own (sharded) one on
    the run that sharded and the file's on the run that did not (silent); a full state dict
    from `get_model_state_dict(..., full_state_dict=True)` is full plain tensors like a file's; a
    dict made of a file's entries (`{k.removeprefix(...): v ...}`) holds them; a file read and
    handed to a helper that loads it is the file's there, in the context of the sharded model
    only; values `distribute_tensor` made are none of the file's. A class's own
    `load_state_dict` runs as its code: its `super().load_state_dict(...)` is torch's load."""
    arms = SHARD + """
    import torch
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

    def run(model, path, distributed: bool):
        if distributed:
            fully_shard(model)
            state = get_model_state_dict(model)
        else:
            state = torch.load(path)
        model.load_state_dict(state)
    """
    assert _lint({"train.py": arms}) == []
    gathered = arms.replace("get_model_state_dict(model)", "get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))")
    assert _lint({"train.py": gathered}) == [("train.py", 12, "FSD302")]
    renamed = SHARD + """
    import torch

    def run(model, path):
        fully_shard(model)
        state = torch.load(path)["model"]
        state = {k.removeprefix("module."): v.to("cpu") for k, v in state.items()}
        model.load_state_dict(state, strict=False)
    """
    assert _lint({"train.py": renamed}) == [("train.py", 9, "FSD302")]
    cut = renamed.replace('v.to("cpu")', "distribute_tensor(v, mesh)").replace("    import torch\n", "    import torch\n    from torch.distributed.tensor import distribute_tensor\n")
    assert _lint({"train.py": cut}) == []
    helper = """
    def load_into(module, state):
        module.load_state_dict(state)
    """
    train = SHARD + """
    import torch
    from helper import load_into

    def run(model, plain, path):
        fully_shard(model)
        load_into(plain, torch.load(path))
        load_into(model, torch.load(path))
    """
    assert _lint({"helper.py": helper, "train.py": train}) == [("helper.py", 3, "FSD302")]
    assert _lint({"helper.py": helper, "train.py": train.replace("        load_into(model, torch.load(path))\n", "")}) == []
    override = SHARD + """
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        def load_state_dict(self, state_dict, strict=True, assign=False):
            state_dict = {k.replace("module.", ""): v for k, v in state_dict.items()}
            return super().load_state_dict(state_dict, strict=strict, assign=assign)

    def run(path):
        model = Net()
        fully_shard(model)
        model.load_state_dict(torch.load(path))
    """
    assert _lint({"train.py": override}) == [("train.py", 13, "FSD302")]  # the override's load of torch's


def test_an_entry_of_a_config_dict_tested_in_two_functions_is_one_flag_until_it_is_stored():
    """`conf["data"] == "fsdp2"` in the function that shards and in the one that loads is one
    flag of the caller's `conf` (a dict from YAML), as `conf.data` would be: the plain load runs
    only with the model plain. A store to the entry between the two calls gives the flag a new
    value (`"ddp"`), so the loader takes the plain load after the wrapper sharded."""
    helpers = SHARD + """
    import torch
    from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict

    def wrap(conf, model):
        if conf["data"] == "fsdp2":
            fully_shard(model)
        return model

    def load_full(model, state):
        set_model_state_dict(model, state, options=StateDictOptions(full_state_dict=True))

    def resume(conf, model, path):
        state = torch.load(path)
        if conf["data"] == "fsdp2":
            load_full(model, state)
        else:
            model.load_state_dict(state)
    """
    train = """
    import sys
    import yaml
    from torch import nn
    from helpers import wrap, resume

    def main(path):
        conf = yaml.safe_load(open(path))
        model = wrap(conf, nn.Linear(4, 4))
        resume(conf, model, conf["ckpt"])

    main(sys.argv[1])
    """
    assert _lint({"helpers.py": helpers, "train.py": train}) == []
    stored = train.replace("        resume(conf,", '        conf["data"] = "ddp"\n        resume(conf,')
    assert _lint({"helpers.py": helpers, "train.py": stored}) == [("helpers.py", 19, "FSD302")]
    other_key = helpers.replace('if conf["data"] == "fsdp2":\n            load_full', 'if conf["resume"] == "fsdp2":\n            load_full')
    assert _lint({"helpers.py": other_key, "train.py": train}) == [("helpers.py", 19, "FSD302")]


def test_an_entry_popped_from_an_unknown_config_is_gone_for_a_callee_that_gets_it():
    """`config["denoiser"].pop("fsdp", None)` (or `del`) of a configuration from YAML is a store
    of None to the entry `config.denoiser.fsdp`, which a callee's `.get("fsdp", None)` reads
    through a local bound to the section: it does not shard, and the plain load is right. A key
    named at run time, a store after the pop and an `update` may put the entry back; a pop from
    another section leaves this one; a helper that returns the section
    (`parse_parallelism_conf(conf)["data"]`) reads the same entry."""
    factory = SHARD + """
    from torch import nn

    def section(config):
        return config["denoiser"]

    def build(config):
        denoiser_config = section(config)
        model = nn.Linear(4, 4)
        if denoiser_config.get("fsdp", None) is not None:
            fully_shard(model)
        return model
    """
    edit = """
    import sys
    import torch
    import yaml
    from factory import build

    def main(path, ckpt):
        config = yaml.safe_load(open(path))
        config["denoiser"].pop("fsdp", None)
        model = build(config)
        model.load_state_dict(torch.load(ckpt))

    main(sys.argv[1], sys.argv[2])
    """
    pop = 'config["denoiser"].pop("fsdp", None)'
    assert _lint({"factory.py": factory, "edit.py": edit}) == []
    assert _lint({"factory.py": factory, "edit.py": edit.replace(pop, 'del config["denoiser"]["fsdp"]')}) == []
    changes = (
        'config["denoiser"].pop(ckpt, None)', pop + '\n        config["denoiser"]["fsdp"] = {}',
        pop + '\n        config["denoiser"].update(yaml.safe_load(open(ckpt)))', 'config["vae"].pop("fsdp", None)',
    )
    for changed in changes:
        assert _lint({"factory.py": factory, "edit.py": edit.replace(pop, changed)}) == [("edit.py", 11 + changed.count("\n"), "FSD302")], changed


def test_an_arm_the_tests_before_it_exclude_is_walked_by_no_run():
    """`kind == "full"` inside `kind == "sharded"` is false on every run that gets there, and so
    is a truth test of a flag inside a test that it is false; the code under it runs on no run,
    while the same call under a compatible test (`kind == "full"` after `kind != "sharded"`) runs."""
    checkpoint = SHARD + """
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    def load_optimizer(model, cfg, optimizer, saved):
        fully_shard(model)
        if cfg.state_dict_type == "sharded":
            if cfg.state_dict_type == "full":
                saved = FSDP.scatter_full_optim_state_dict(saved, model)
            elif not cfg.state_dict_type:
                saved = FSDP.scatter_full_optim_state_dict(saved, model)
        optimizer.load_state_dict(saved)

    def load_optimizer_full(model, cfg, optimizer, saved):
        fully_shard(model)
        if cfg.state_dict_type != "sharded":
            if cfg.state_dict_type == "full":
                saved = FSDP.scatter_full_optim_state_dict(saved, model)
        optimizer.load_state_dict(saved)
    """
    assert _lint({"checkpoint.py": checkpoint}) == [("checkpoint.py", 18, "FSD203")]


def test_a_finding_in_a_callee_says_how_the_model_got_there_in_text_and_sarif():
    files = {
        "train.py": SHARD + """
        from step import train_step

        def main():
            model = Net()
            fully_shard(model)
            train_step(model, batch)
        """,
        "step.py": """
        def train_step(model, batch):
            return model.forward(batch).sum()
        """,
    }
    result = lint_sources({path: _source(text) for path, text in files.items()}, LintOptions())
    (finding,) = result.violations
    assert (finding.path, finding.line, finding.code) == ("step.py", 3, "FSD201")
    assert "`model` sharded in main() (train.py:7)" in finding.message
    assert "passed to train_step() (train.py:8)" in finding.message
    assert [(note.path, note.line) for note in finding.related] == [("train.py", 7), ("train.py", 8)]
    document = sarif.document(result.violations)
    jsonschema.Draft4Validator(SCHEMA).validate(document)
    (rendered,) = document["runs"][0]["results"]
    assert [r["physicalLocation"]["region"]["startLine"] for r in rendered["relatedLocations"]] == [7, 8]
    steps = rendered["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [s["location"]["physicalLocation"]["artifactLocation"]["uri"] for s in steps] == ["train.py", "train.py", "step.py"]


def test_a_helper_called_only_with_a_plain_model_is_clean():
    files = {
        "train.py": """
        from step import train_step

        def main():
            train_step(Net(), batch)
        """,
        "step.py": """
        def train_step(model, batch):
            return model.forward(batch).sum()
        """,
    }
    assert _lint(files) == []


def test_an_entry_points_parameters_are_unknown_and_silent():
    """No caller in the tree: whether `model` is sharded is unknown, so nothing is reported."""
    assert _lint({"step.py": "def train_step(model, batch):\n    return model.forward(batch)\n"}) == []


def test_findings_do_not_depend_on_the_order_functions_and_methods_are_written():
    functions = [
        "def shard(model):\n    for block in model.layers:\n        fully_shard(block)\n    fully_shard(model)\n",
        "def build():\n    model = Transformer()\n    opt = torch.optim.AdamW(model.parameters())\n    shard(model)\n    return model, opt\n",
        "def step(model, batch):\n    return model.forward(batch)\n",
        "def main():\n    model, opt = build()\n    step(model, batch)\n    torch.save(model.state_dict(), 'x.pt')\n",
        "class Trainer:\n    def fit(self):\n        self.setup()\n        self.model.forward(1)\n\n"
        "    def setup(self):\n        self.model = Net()\n        fully_shard(self.model)\n",
    ]
    header = "import torch\n" + SHARD
    seen = set()
    rng = random.Random(12)
    for _ in range(6):
        order = functions[:]
        rng.shuffle(order)
        source = header + "\n\n".join(order)
        found = lint_sources({"train.py": source}, LintOptions()).violations
        # the same findings, each at wherever its line moved to
        seen.add(tuple(sorted((v.code, source.splitlines()[v.line - 1].strip()) for v in found)))
    assert len(seen) == 1
    (findings,) = seen
    assert {code for code, _ in findings} == {"FSD201", "FSD202", "FSD301"}



def test_how_far_a_meta_model_got_travels_into_callees_and_back():
    """`to_empty` and initialisation are facts of the object: a helper's summary says how far it
    took the model, and the callee the model is passed to next sees it so."""
    files = {
        "build.py": SHARD + """
        import torch
        from helpers import materialise

        def build():
            with torch.device("meta"):
                model = Transformer()
            fully_shard(model)
            materialise(model)
            return model
        """,
        "helpers.py": "def materialise(model):\n    model.to_empty(device='cuda')\n    model.init_weights()\n",
        "step.py": "def step(model, batch):\n    return model(batch).sum()\n",
        "main.py": "from build import build\nfrom step import step\n\nstep(build(), batch)\n",
    }
    assert _lint(files) == []
    files["helpers.py"] = "def materialise(model):\n    model.to_empty(device='cuda')\n"
    assert _lint(files) == [("step.py", 2, "FSD105")]


def test_a_meta_model_loaded_on_one_path_only_is_uninitialised_on_the_other():
    files = {"train.py": SHARD + """
    import torch

    def main(batch, state, resume):
        with torch.device("meta"):
            model = Transformer()
        fully_shard(model)
        if resume:
            model.load_state_dict(state, assign=True)
            return model(batch)
        model.to_empty(device="cuda")
        model.load_state_dict(state)
        return model(batch)
    """}
    assert _lint(files) == []
    # without `to_empty` first, a plain `load_state_dict` copies into meta tensors: a no-op
    files["train.py"] = files["train.py"].replace('        model.to_empty(device="cuda")\n', "")
    assert _lint(files) == [("train.py", 13, "FSD105")]


def test_initialisation_of_a_meta_model_is_a_must_fact_at_the_forward():
    """After `to_empty`, the model is initialised at a forward only where every run to it
    initialised or loaded it: a load on one arm of `if ckpt:` leaves the runs where `ckpt` is
    false with uninitialised memory, and the finding says which runs those are. An `else` that
    initialises, a loop whose passes initialise the parts (tests inside it tell items apart,
    not runs), and a helper whose test of its argument the caller decides are clean; an
    initialisation before `to_empty` is undone by it."""
    program = SHARD + """
    import torch
    from torch.distributed.checkpoint.state_dict import set_model_state_dict

    def main(batch, ckpt):
        with torch.device("meta"):
            model = Transformer()
        fully_shard(model)
        model.to_empty(device="cuda")
        if ckpt:
            set_model_state_dict(model, torch.load(ckpt))
        return model(batch)
    """
    found = lint_sources({"train.py": _source(program)}, LintOptions()).violations
    assert [(v.line, v.code) for v in found] == [(13, "FSD105")]
    assert "when `ckpt` is false," in found[0].message
    initialised_else = program.replace(
        "            set_model_state_dict(model, torch.load(ckpt))\n",
        "            set_model_state_dict(model, torch.load(ckpt))\n        else:\n            model.init_weights()\n",
    )
    assert _lint({"train.py": initialised_else}) == []
    per_part = program.replace(
        "        if ckpt:\n            set_model_state_dict(model, torch.load(ckpt))\n",
        "        for module in model.modules():\n            if isinstance(module, torch.nn.Linear):\n                module.reset_parameters()\n",
    )
    assert _lint({"train.py": per_part}) == []
    helper = {
        "load.py": "from torch.distributed.checkpoint.state_dict import set_model_state_dict\n\n"
        "def load(model, state):\n    if state is None:\n        return\n    set_model_state_dict(model, state)\n",
        "train.py": program.replace("from torch.distributed.checkpoint.state_dict import set_model_state_dict", "from load import load").replace(
            "        if ckpt:\n            set_model_state_dict(model, torch.load(ckpt))\n", "        load(model, torch.load(ckpt))\n",
        ),
    }
    assert _lint(helper) == []
    undone = program.replace(
        "        model.to_empty(device=\"cuda\")\n        if ckpt:\n            set_model_state_dict(model, torch.load(ckpt))\n",
        "        model.init_weights()\n        model.to_empty(device=\"cuda\")\n",
    )
    assert _lint({"train.py": undone}) == [("train.py", 12, "FSD105")]


def test_to_empty_undoes_an_initialisation_only_on_the_runs_that_take_it():
    """A model loaded (`set_model_state_dict`) and emptied again on one arm (`if reset:`) is initialised
    on the runs that skip the arm: the finding names the arm's runs, and initialising on the arm
    too is clean (lingua's `parallelize_model`, whose result is the model or a wrapper of it on
    different runs, has its caller's `to_empty` on the model's runs only)."""
    program = SHARD + """
    import torch
    from torch.distributed.checkpoint.state_dict import set_model_state_dict

    def main(batch, ckpt, reset):
        with torch.device("meta"):
            model = Transformer()
        fully_shard(model)
        set_model_state_dict(model, torch.load(ckpt))
        if reset:
            model.to_empty(device="cuda")
        return model(batch)
    """
    found = lint_sources({"train.py": _source(program)}, LintOptions()).violations
    assert [(v.line, v.code) for v in found] == [(13, "FSD105")]
    assert "`to_empty` gave it uninitialised memory, but when `reset` is true," in found[0].message
    reinitialised = program.replace('            model.to_empty(device="cuda")\n', '            model.to_empty(device="cuda")\n            model.init_weights()\n')
    assert _lint({"train.py": reinitialised}) == []


def test_a_test_of_an_attribute_is_worded_once_in_a_callees_finding():
    """A run that skipped `if args.resume:` is described once, by the flag the test fixes (the
    callee is handed `args`, so the flag is one it can name), and not again by the test's own
    outcome as a note of the function (awsome-distributed-training's FSD105 read "when
    `args.resume` is false and `args.resume` is false (in `main`)")."""
    program = SHARD + """
    import torch

    from ckpt import load_checkpoint

    def train_step(model, batch, args):
        return model(batch)

    def main(args, batch):
        with torch.device("meta"):
            model = Transformer()
        fully_shard(model)
        model.to_empty(device="cuda")
        if args.resume:
            model, step = load_checkpoint(model, args.resume)
        return train_step(model, batch, args)
    """
    ckpt = (
        "import torch\nfrom torch.distributed.checkpoint.state_dict import set_model_state_dict\n\n"
        "def load_checkpoint(model, path):\n    set_model_state_dict(model, torch.load(path))\n    return model, 1\n"
    )
    found = lint_sources({"train.py": _source(program), "ckpt.py": ckpt}, LintOptions()).violations
    assert [(v.path, v.line, v.code) for v in found] == [("train.py", 8, "FSD105")]
    assert "but when `args.resume` is false, nothing initialised" in found[0].message


def test_a_forward_of_a_wrapper_runs_the_meta_model_it_holds():
    """The forward of a module that holds a model on the meta device runs that model (as a
    forward of a module around a sharded one ends its lazy initialisation): a sampler that calls
    the wrapper uses the uninitialised model inside it, and the wrapper's `forward`, walked with
    the sampler's facts (a module call runs its class's `forward`), runs it at its own call. One
    mistake is one finding, there, with the calls that brought the model (the sampler's call of
    the wrapper among them); the sampler's call is no second one. Where the forward runs the
    model in code the analysis cannot see, the sampler's call is the finding; initialised, the
    program is clean."""
    files = {
        "wrapper.py": """
        import torch
        from torch import nn

        class Wrapper(nn.Module):
            def __init__(self):
                super().__init__()
                with torch.device("meta"):
                    self.model = Transformer()

            def forward(self, x):
                return self.model(x)
        """,
        "train.py": SHARD + """
        from wrapper import Wrapper

        class Sampler:
            def __init__(self, generator):
                self.generator = generator

            def sample(self, noise):
                return self.generator(noise)

        def main(noise):
            wrapper = Wrapper()
            fully_shard(wrapper.model)
            wrapper.model.to_empty(device="cuda")
            return Sampler(wrapper).sample(noise)
        """,
    }
    found = lint_sources({path: _source(text) for path, text in files.items()}, LintOptions()).violations
    assert [(v.path, v.line, v.code) for v in found] == [("wrapper.py", 12, "FSD105")]
    assert any(note.path == "train.py" and note.line == 10 and note.message.startswith("passed to forward()") for note in found[0].related)
    unseen = dict(files, **{"wrapper.py": files["wrapper.py"].replace("return self.model(x)", "return checkpoint(self.model, x)")})
    assert _lint(unseen) == [("train.py", 10, "FSD105")]
    initialised = dict(files, **{"train.py": files["train.py"].replace('to_empty(device="cuda")', 'to_empty(device="cuda")\n            wrapper.model.init_weights()')})
    assert _lint(initialised) == []


def test_a_call_s_finding_is_left_out_only_for_the_object_found_below():
    """One mistake, one finding, followed by object: the wrapper's forward hands the model it
    holds to a helper in another module, which runs it (the helper's line is the one finding,
    however deep); the wrapper also holds an uninitialised EMA copy its forward never runs, which
    the wrapper's call itself uses by the rule's contract (a forward of a module that holds it),
    so the call stays a finding, about that copy."""
    files = {
        "steps.py": "def velocity_of(net, x):\n    return net(x)\n",
        "wrapper.py": """
        import torch
        from torch import nn
        from steps import velocity_of

        class Wrapper(nn.Module):
            def __init__(self):
                super().__init__()
                with torch.device("meta"):
                    self.model = Transformer()

            def forward(self, x):
                return velocity_of(self.model, x)
        """,
        "train.py": SHARD + """
        from wrapper import Wrapper

        def main(noise):
            wrapper = Wrapper()
            fully_shard(wrapper.model)
            wrapper.model.to_empty(device="cuda")
            return wrapper(noise)
        """,
    }
    assert _lint(files) == [("steps.py", 2, "FSD105")]
    with_ema = dict(files, **{"wrapper.py": files["wrapper.py"].replace(
        "self.model = Transformer()", "self.model = Transformer()\n                    self.ema = Transformer()",
    )})
    with_ema["train.py"] = with_ema["train.py"].replace("fully_shard(wrapper.model)", "fully_shard(wrapper.model)\n            fully_shard(wrapper.ema)")
    found = lint_sources({path: _source(text) for path, text in with_ema.items()}, LintOptions()).violations
    assert sorted((v.path, v.line, v.code) for v in found) == [("steps.py", 2, "FSD105"), ("train.py", 10, "FSD105")]
    assert "`wrapper.ema` was built on the meta device" in next(v.message for v in found if v.path == "train.py")


def test_a_call_and_its_callee_bypassing_two_units_are_two_findings():
    """A finding at a call gives way only to one about the same object below it: `model.forward(x)`
    skips the root's hooks, and the root's `forward`, walked from there, skips the encoder's with
    `self.encoder.forward(x)`. Two units, two mistakes, two findings (FSD201 names its subject, as
    FSD105 does; the two are not one object)."""
    files = {
        "model.py": """
        from torch import nn

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = Encoder()
                self.head = nn.Linear(8, 2)

            def forward(self, x):
                return self.head(self.encoder.forward(x))
        """,
        "train.py": SHARD + """
        from model import Model

        def main(batch):
            model = Model()
            fully_shard(model.encoder)
            fully_shard(model)
            return model.forward(batch).sum()
        """,
    }
    assert _lint(files) == [("model.py", 11, "FSD201"), ("train.py", 9, "FSD201")]


def test_a_partial_carries_what_it_binds_to_whoever_calls_it():
    """`functools.partial(step, model, opt)` handed to a training loop in another module: the
    loop's call runs `step` with the bound model, sharded as the caller left it."""
    files = {
        "train.py": SHARD + """
        import functools
        import torch
        from loop import run
        from steps import step

        def main(loader):
            model = Net()
            fully_shard(model)
            opt = torch.optim.AdamW(model.parameters())
            run(functools.partial(step, model, opt), loader)
        """,
        "loop.py": "def run(step_fn, loader):\n    for batch in loader:\n        step_fn(batch)\n",
        "steps.py": "def step(model, opt, batch):\n    model.forward(batch).sum().backward()\n    opt.step()\n",
    }
    assert _lint(files) == [("steps.py", 2, "FSD201")]
    files["steps.py"] = files["steps.py"].replace("model.forward(batch)", "model(batch)")
    assert _lint(files) == []


def test_a_flag_of_the_model_decides_its_tie_in_another_function():
    """A tie made under `self.tie` (directly, or by a helper method every caller guards with the
    flag) holds only where `model.tie` is true: a helper that splits the units only when it is
    false is clean; one helper method call without the guard makes the tie unconditional."""
    model = """
    from torch import nn

    class Model(nn.Module):
        def __init__(self, tie):
            super().__init__()
            self.embed = nn.Embedding(10, 4)
            self.head = nn.Linear(4, 10)
            self.tie = tie
            if tie:
                self._tie()

        def _tie(self):
            self.head.weight = self.embed.weight

        def reset(self):
            {reset}
    """
    shard = SHARD + """
    from model import Model

    def main(tie):
        model = Model(tie)
        if not model.tie:
            fully_shard(model.embed)
            fully_shard(model.head)
        fully_shard(model)
    """
    guarded = model.replace("{reset}", "if self.tie:\n                self._tie()")
    assert _lint({"model.py": guarded, "shard.py": shard}) == []
    unguarded = model.replace("{reset}", "self._tie()")
    assert _lint({"model.py": unguarded, "shard.py": shard}) == [("shard.py", 9, "FSD104")]


def test_a_tie_split_between_a_callers_unit_and_a_callees_is_reported_once_where_both_are_made():
    """`fully_shard(model.embed)`, then a helper that shards `model.head` (tied to it): the caller
    holds both units (the helper's comes back in its summary) and reports at the call; the
    helper, which inherited the embedding's unit, does not report it again."""
    model = """
    from torch import nn

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(10, 16)
            self.layers = nn.ModuleList([nn.Linear(16, 16) for _ in range(2)])
            self.head = nn.Linear(16, 10)
            self.head.weight = self.embed.weight
    """
    train = SHARD + """
    from model import LM

    def shard_head(model):
        fully_shard(model.head)

    def main():
        model = LM()
        fully_shard(model.embed)
        shard_head(model)
        fully_shard(model)
    """
    assert _lint({"model.py": model, "train.py": train}) == [("train.py", 11, "FSD104")]
    untied = model.replace("            self.head.weight = self.embed.weight\n", "")
    assert _lint({"model.py": untied, "train.py": train}) == []


def test_an_argument_inside_another_is_known_to_the_callee_as_part_of_it():
    """`apply_fsdp(model, model.layers)`: the callee shards each block of its second argument,
    then its first; the blocks are the first one's (`Context.within`), so the root is not one
    unit for the whole model. The blocks of another model leave it one (and that model is not)."""
    model = """
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Linear(16, 16)
            self.layers = nn.ModuleList([nn.Sequential(nn.Linear(16, 16), nn.Linear(16, 16)) for _ in range(4)])
    """
    parallel = SHARD + """
    def apply_fsdp(root, blocks):
        for block in blocks:
            fully_shard(block)
        fully_shard(root)
    """
    train = SHARD + """
    from model import Net
    from parallel import apply_fsdp

    def main():
        model, other = Net(), Net()
        apply_fsdp(model, {blocks})
        fully_shard(other)
    """
    assert _lint({"model.py": model, "parallel.py": parallel, "train.py": train.format(blocks="model.layers")}) == [("train.py", 9, "FSD101")]
    assert _lint({"model.py": model, "parallel.py": parallel, "train.py": train.format(blocks="other.layers")}) == [("parallel.py", 6, "FSD101")]


def test_a_list_a_helper_hands_back_is_the_list_it_was_given():
    """`compiled(blocks, config=None)` returns `blocks` when nothing is compiled: the caller's
    loop over what it returns shards the model's blocks (`RootMapper.value`: a parameter handed
    back whose argument is no object is that argument, where it was unknown)."""
    model = """
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Linear(16, 16)
            self.layers = nn.ModuleList([nn.Sequential(nn.Linear(16, 16), nn.Linear(16, 16)) for _ in range(4)])
    """
    parallel = """
    import torch

    def compiled(blocks, config=None):
        if config is None:
            return blocks
        return [torch.compile(block) for block in blocks]
    """
    train = SHARD + """
    from model import Net
    from parallel import compiled

    def main():
        model = Net()
        for block in compiled({blocks}):
            fully_shard(block)
        fully_shard(model)
    """
    assert _lint({"model.py": model, "parallel.py": parallel, "train.py": train.format(blocks="list(model.layers)")}) == []
    assert _lint({"model.py": model, "parallel.py": parallel, "train.py": train.format(blocks="[]")}) == [("train.py", 10, "FSD101")]


def test_the_attributes_of_an_object_a_helper_builds_and_returns_come_back_with_it():
    files = {
        "build.py": SHARD + """
        class Bundle:
            pass

        def build():
            bundle = Bundle()
            bundle.student = Net()
            bundle.teacher = Net()
            fully_shard(bundle.student)
            return bundle
        """,
        "train.py": "from build import build\n\nbundle = build()\nbundle.teacher.forward(1)\nbundle.student.forward(1)\n",
    }
    assert _lint(files) == [("train.py", 5, "FSD201")]


@pytest.mark.parametrize("driver", [
    "save_with(Checkpointer(), model)",
    "Trainer(model, Checkpointer()).save_checkpoint()",
    "checkpointer = Checkpointer()\n    trainer = Trainer(model, checkpointer)\n    trainer.save_checkpoint()",
])
def test_an_object_of_a_module_not_entered_yet_keeps_its_module_in_a_callee(driver):
    """`Checkpointer()` of a module that holds nothing sharded is a deferred result; handed to a
    helper (a parameter) or kept on an object whose method runs later (`self.checkpointer`), a
    method called on it there is a call into that module, which is then entered and walked with
    the sharded model it receives."""
    files = {
        "checkpoint.py": "import torch\n\nclass Checkpointer:\n    def save(self, model):\n        torch.save(model.state_dict(), 'ckpt.pt')\n",
        "helpers.py": """
        def save_with(checkpointer, model):
            checkpointer.save(model)

        class Trainer:
            def __init__(self, model, checkpointer):
                self.model = model
                self.checkpointer = checkpointer

            def save_checkpoint(self):
                self.checkpointer.save(self.model)
        """,
        "train.py": f"{SHARD}from checkpoint import Checkpointer\nfrom helpers import Trainer, save_with\n\n"
        f"def main(model):\n    fully_shard(model)\n    {driver}\n",
    }
    assert _lint(files) == [("checkpoint.py", 5, "FSD301")]


@pytest.mark.parametrize("state, expected", [
    ("self.model.state_dict()", [("trainer.py", 11, "FSD301")]),
    ("get_model_state_dict(self.model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))", []),
])
def test_a_model_stored_on_self_as_one_of_several_keeps_its_shards_in_later_methods(state, expected):
    """`self.model` holds the pretrained model or a fresh one, as a branch chose; both are sharded,
    and a method that runs later saves the state dict of whichever it is."""
    files = {
        "trainer.py": f"""
import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

class Trainer:
    def __init__(self, model):
        self.model = model

    def export(self, path):
        state = {state}
        torch.save(state, path)

    def fit(self):
        self.export("model.pt")
""",
        "train.py": SHARD + """
        from transformers import AutoConfig, AutoModelForCausalLM, Qwen2ForCausalLM
        from trainer import Trainer

        def main(cfg):
            if cfg.pretrained:
                model = AutoModelForCausalLM.from_pretrained(cfg.name)
            else:
                model = Qwen2ForCausalLM(AutoConfig.from_pretrained(cfg.name))
            for block in model.model.layers:
                fully_shard(block)
            fully_shard(model)
            trainer = Trainer(model)
            trainer.fit()
        """,
    }
    assert _lint(files) == expected


def test_a_path_of_self_holding_an_fsdp1_wrapper_or_a_sharded_model_says_nothing_of_either():
    """verl's shape: `self.model` is the FSDP1 wrapper on one branch and the model `fully_shard`
    sharded on the other. A later method names both by the one path and cannot tell which runs
    hold the shards, so the FSDP1 API it calls under `fsdp_version(self.model) == 1` is not
    reported as if the path were sharded."""
    files = {
        "trainer.py": """
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType
        from utils import fsdp_version

        class Trainer:
            def __init__(self, model):
                self.model = model

            def prepare_rollout(self):
                if fsdp_version(self.model) == 1:
                    FSDP.set_state_dict_type(self.model, state_dict_type=StateDictType.SHARDED_STATE_DICT)

            def fit(self):
                self.prepare_rollout()
        """,
        "utils.py": """
        from torch.distributed.fsdp import FSDPModule, FullyShardedDataParallel as FSDP

        def fsdp_version(model):
            if isinstance(model, FSDP):
                return 1
            if isinstance(model, FSDPModule):
                return 2
            return 0
        """,
        "train.py": SHARD + """
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        from transformers import AutoModelForCausalLM
        from trainer import Trainer

        def main(cfg):
            module = AutoModelForCausalLM.from_pretrained(cfg.name)
            strategy = cfg.strategy
            if strategy == "fsdp":
                model = FSDP(module, use_orig_params=True)
            elif strategy == "fsdp2":
                for block in module.model.layers:
                    fully_shard(block)
                fully_shard(module)
                model = module
            else:
                raise NotImplementedError(strategy)
            Trainer(model).fit()
        """,
    }
    assert _lint(files) == []


def test_a_collective_a_helper_issues_is_reported_where_only_some_ranks_call_the_helper():
    """What a call runs counts where the call is made: `outer()` reaches `dcp.save` through
    `save()` on every run, so calling it under `if rank == 0:` hangs the job, reported at the
    call. Silent where the helper's collective needs no other rank (`no_dist`), is under its own
    rank test (reported there, once), or under a test of what it is given (`local_rank == -1`,
    `isinstance(x, DTensor)`: a full state dict holds none), and where the caller's test is no
    rank test (`world_size == 1`)."""
    files = {
        "ckpt.py": """
        import torch.distributed as dist
        import torch.distributed.checkpoint as dcp
        from torch.distributed.tensor import DTensor

        def save_local(model, step):
            dcp.save({"model": model.state_dict()}, checkpoint_id=f"ckpt/{step}", no_dist=True)

        def save_own_test(model, step):
            if dist.get_rank() == 0:
                dcp.save({"model": model.state_dict()}, checkpoint_id=f"ckpt/{step}")

        def save_single(model, step, local_rank):
            if local_rank == -1:
                dcp.save({"model": model.state_dict()}, checkpoint_id=f"ckpt/{step}")

        def full(x):
            if isinstance(x, DTensor):
                return x.full_tensor()
            return x

        def export(state):
            return {key: full(value) for key, value in state.items()}

        def save(model, step):
            dcp.save({"model": model.state_dict()}, checkpoint_id=f"ckpt/{step}")

        def outer(model, step):
            print(f"saving step {step}")
            save(model, step)
        """,
        "train.py": SHARD + """
        import torch.distributed as dist
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
        from ckpt import export, outer, save, save_local, save_own_test, save_single

        def main(model, local_rank):
            fully_shard(model)
            state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
            if dist.get_rank() == 0:
                save_local(model, 0)
                save_own_test(model, 0)
                save_single(model, 0, local_rank)
                export(state)
                outer(model, 0)
            world_size = dist.get_world_size()
            if world_size == 1:
                save(model, 1)
            save(model, 2)
        """,
    }
    assert _lint(files) == [("ckpt.py", 11, "FSD206"), ("train.py", 15, "FSD206")]
    at_call = next(v for v in lint_sources({p: _source(t) for p, t in files.items()}, LintOptions()).violations if v.path == "train.py")
    assert "`dcp.save` (in `save()`, which this call runs)" in at_call.message
    assert [(n.path, n.line) for n in at_call.related] == [("ckpt.py", 26)]
    assert "(ckpt.py:26)" in at_call.message


def test_a_helper_whose_loop_passes_get_on_to_a_collective_communicates_on_every_run_that_does_its_work():
    """A loop's passes that a test of the item at hand lets on to the work (past `if index >=
    limit: break`, `if batch is None: continue`, or into an `if` that ends the body) issue the
    collective on every run that does any of that work: the helper called under a rank test is
    reported at the call. Not where a pass may do its work without it (`if isinstance(value,
    DTensor):` around the gather, then a copy on every pass), nor where the test that skips the
    passes reads what every pass shares (`if not enabled: break`, a test of the run), nor where
    it tests the rank (`index % world != rank` leaves ranks out, not passes: reported in the
    helper, once)."""
    files = {
        "evaluation.py": """
        import torch.distributed as dist
        from torch.distributed.tensor import DTensor

        def past_limit(model, loader, limit):
            for index, batch in enumerate(loader):
                if index >= limit:
                    break
                if batch is None:
                    continue
                model(batch)

        def last_test(model, loader, limit):
            for index, batch in enumerate(loader):
                if index < limit:
                    model(batch)

        def copied(state):
            out = {}
            for name, value in state.items():
                if isinstance(value, DTensor):
                    value = value.full_tensor()
                out[name] = value.cpu()
            return out

        def flagged(model, loader, enabled):
            for batch in loader:
                if not enabled:
                    break
                model(batch)

        def strided(model, loader):
            rank, world = dist.get_rank(), dist.get_world_size()
            for index, batch in enumerate(loader):
                if index % world != rank:
                    continue
                model(batch)
        """,
        "train.py": SHARD + """
        import torch
        import torch.distributed as dist
        from evaluation import copied, flagged, last_test, past_limit, strided

        def main(model, loader, path, enabled):
            fully_shard(model)
            if dist.get_rank() == 0:
                past_limit(model, loader, 2)
                last_test(model, loader, 2)
                copied(torch.load(path))
                flagged(model, loader, enabled)
                strided(model, loader)
        """,
    }
    assert _lint(files) == [("evaluation.py", 37, "FSD206"), ("train.py", 10, "FSD206"), ("train.py", 11, "FSD206")]


def test_a_global_sharded_on_every_run_is_an_fsdp_module_in_the_functions_that_read_it():
    """A script's model, a global bound to one of two objects (built anew or resumed) that the
    top level shards either way, is an `FSDPModule` on every run in the functions called after
    (`Context.certain`), through a second call too: its forward there is a collective, so a
    rank-0 call of the function hangs. Not where the top level shards it on some runs only (`if
    use_fsdp:`)."""
    script = SHARD + """
    import sys
    import torch
    import torch.distributed as dist

    if len(sys.argv) > 1:
        model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
        model.load_state_dict(torch.load(sys.argv[1]))
    else:
        model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
    {shard}

    def evaluate():
        return model(torch.randn(2, 4)).sum()

    def report():
        print(evaluate())

    if dist.get_rank() == 0:
        evaluate()
        report()
    """
    always = _lint({"train.py": script.format(shard="fully_shard(model)")})
    assert always == [("train.py", 21, "FSD206"), ("train.py", 22, "FSD206")]
    assert _lint({"train.py": script.format(shard="if '--fsdp' in sys.argv: fully_shard(model)")}) == []


def test_a_tensor_of_a_full_state_dict_is_no_dtensor_and_gathers_nothing():
    # get_model_state_dict(..., full_state_dict=True) holds plain tensors (torch 2.13, 2 gloo
    # ranks): `isinstance(v, DTensor)` is false and `.full_tensor()` of one gathers nothing; a
    # sharded state dict's values are DTensors, gathered on one rank only: a hang.
    files = {
        "train.py": SHARD + """
        import torch.distributed as dist
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, get_state_dict
        from torch.distributed.tensor import DTensor

        def main(model, optimizer):
            fully_shard(model)
            full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
            model_state, optim_state = get_state_dict(model, optimizer, options=StateDictOptions(full_state_dict=True))
            sharded = get_model_state_dict(model)
            if dist.get_rank() == 0:
                whole = [value.full_tensor() for value in full.values()]
                for name, value in model_state.items():
                    if isinstance(value, DTensor):
                        value = value.full_tensor()
                kept = {name: value.cpu().full_tensor() for name, value in full.items()}
                gathered = [value.full_tensor() for value in sharded.values()]
        """,
    }
    assert _lint(files) == [("train.py", 18, "FSD206")]


def test_a_full_state_dict_stored_on_an_object_stays_gathered_in_its_other_methods():
    # `self.state` set by one method and read by another, in the context the object's facts
    # give it: a full state dict there is plain tensors (no gather on rank 0), a sharded one
    # holds DTensors (a gather on rank 0 only: a hang).
    writer = """
            def write(self, path):
                if dist.get_rank() == 0:
                    plain = {k: v.full_tensor() if isinstance(v, DTensor) else v for k, v in self.state.items()}
                    torch.save(plain, path)
    """
    files = {
        "export.py": """
        import torch
        import torch.distributed as dist
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
        from torch.distributed.tensor import DTensor

        class FullExporter:
            def __init__(self, model):
                self.model = model
                self.state = None

            def gather(self):
                self.state = get_model_state_dict(self.model, options=StateDictOptions(full_state_dict=True))
        """ + writer + """
        class ShardExporter:
            def __init__(self, model):
                self.model = model
                self.state = None

            def gather(self):
                self.state = get_model_state_dict(self.model)
        """ + writer,
        "train.py": SHARD + """
        from export import FullExporter, ShardExporter

        def main(model):
            fully_shard(model)
            for exporter in (FullExporter(model), ShardExporter(model)):
                exporter.gather()
                exporter.write("weights.pt")
        """,
    }
    assert _lint(files) == [("export.py", 30, "FSD206")]


def test_a_context_manager_runs_its_code_after_yield_where_the_with_block_ends():
    """`with cm(...):` of a `@contextmanager` of the tree: the code before `yield` at the `with`,
    the block, then the code after `yield`; `as` binds what it yields. Here the code after `yield`
    shards, so an optimizer built in the block is built before the shard, and one built after the
    block is not."""
    helpers = SHARD + """
    from contextlib import contextmanager

    @contextmanager
    def shard_on_exit(model):
        yield model
        for block in model.layers:
            fully_shard(block)
        fully_shard(model)
    """
    inside = """
    import torch
    from helpers import shard_on_exit

    def setup(model):
        with shard_on_exit(model) as plain:
            optimizer = torch.optim.AdamW(plain.parameters())
        return optimizer
    """
    after = """
    import torch
    from helpers import shard_on_exit

    def setup(model):
        with shard_on_exit(model) as plain:
            plain.to(torch.bfloat16)
        return torch.optim.AdamW(model.parameters())
    """
    assert _lint({"helpers.py": helpers, "train.py": inside}) == [("train.py", 7, "FSD202")]
    assert _lint({"helpers.py": helpers, "train.py": after}) == []


def test_an_optimizer_rebuilt_over_the_sharded_parameters_holds_them():
    """Clearing or replacing the param groups, or adding a group over the sharded model's
    parameters, after the shard leaves the optimizer over the new parameters (checked with torch
    2.13 on CPU); a group of other parameters does not, nor does a rebuild before the shard."""
    template = SHARD + """
    import torch

    def setup(model, extra):
        optimizer = torch.optim.AdamW(model.parameters())
        fully_shard(model)
        {rebuild}
        return optimizer
    """
    rebuilt = [
        "optimizer.param_groups = [{'params': list(model.parameters())}]",
        "optimizer.param_groups[:] = [{'params': list(model.parameters())}]",
        "optimizer.add_param_group({'params': model.parameters(), 'lr': 1e-4})",
        "for group in optimizer.param_groups: group['params'] = list(model.parameters())",
    ]
    for rebuild in rebuilt:
        assert _lint({"train.py": template.format(rebuild=rebuild)}) == [], rebuild
    stale = [
        "optimizer.add_param_group({'params': extra.parameters()})",
        "for group in optimizer.param_groups: group['lr'] = 1e-4",
    ]
    for rebuild in stale:
        assert _lint({"train.py": template.format(rebuild=rebuild)}) == [("train.py", 6, "FSD202")], rebuild
    before = template.replace("        fully_shard(model)\n        {rebuild}", "        {rebuild}\n        fully_shard(model)")
    assert _lint({"train.py": before.format(rebuild=rebuilt[0])}) == [("train.py", 6, "FSD202")]
    # rebuilt on the runs that ask for it only: the other runs keep the stale tensors
    some_runs = template.replace("def setup(model, extra):", "def setup(model, extra, fix_optimizer):").replace(
        "        {rebuild}", "        if fix_optimizer:\n            {rebuild}"
    )
    assert _lint({"train.py": some_runs.format(rebuild=rebuilt[0])}) == [("train.py", 6, "FSD202")]


def test_the_chain_names_only_the_arguments_the_finding_is_about():
    """A finding's chain tells how its own object got to the callee: another argument the same
    calls passed (a part of the sharded model, a counter) is not "sharded in main()"."""
    files = {
        "train.py": SHARD + """
        from step import train_step

        def main():
            model = Net()
            fully_shard(model)
            patience = 0
            train_step(model, model.config, patience, batch)
        """,
        "step.py": """
        def train_step(model, config, patience, batch):
            return model.forward(batch).sum()
        """,
    }
    result = lint_sources({path: _source(text) for path, text in files.items()}, LintOptions())
    (finding,) = result.violations
    assert "`model` sharded in main() (train.py:7)" in finding.message
    assert "`config`" not in finding.message and "`patience`" not in finding.message
    assert [(note.path, note.line) for note in finding.related] == [("train.py", 7), ("train.py", 9)]


def test_the_chain_counts_columns_in_characters():
    """Related locations are 1-based character columns, as findings are: a non-ASCII name before
    the call must not shift them (astroid's offsets are bytes)."""
    files = {
        "train.py": SHARD + """
        from step import train_step

        def main():
            modèle = Net()
            fully_shard(modèle)
            é = 1; train_step(modèle, batch)
        """,
        "step.py": """
        def train_step(model, batch):
            return model.forward(batch).sum()
        """,
    }
    result = lint_sources({path: _source(text) for path, text in files.items()}, LintOptions())
    (finding,) = result.violations
    assert [(note.line, note.column) for note in finding.related] == [(7, 5), (8, 12)]


def test_an_optimizer_a_helper_hands_to_a_remapping_call_is_remapped_in_the_caller():
    """FSD202's remapping calls (`parallelize_model(model, optimizer=...)`) are asked of the
    analysis: a helper that passes the optimizer on, after sharding, counts where it is called,
    whichever walk runs first."""
    files = {
        "train.py": "import torch\nfrom wrap import wrap\n\n\ndef main():\n    model = Net()\n"
        "    optimizer = torch.optim.AdamW(model.parameters())\n    wrap(model, (optimizer,))\n",
        "wrap.py": SHARD + """
        from framework import parallelize_model

        def wrap(model, optimizers):
            for block in model.layers:
                fully_shard(block)
            fully_shard(model)
            parallelize_model(model, optimizer=optimizers[0])
        """,
    }
    assert _lint(files) == []
    files["wrap.py"] = files["wrap.py"].replace("optimizer=optimizers[0]", "optimizer=None")
    assert _lint(files) == [("train.py", 7, "FSD202")]


def test_a_property_is_read_through_its_getter():
    """`engine.module` where `module` is a `@property` of the engine's class returning what
    `__init__` stored: the sharded model itself, not an attribute nothing set."""
    files = {
        "engine.py": """
        class Engine:
            def __init__(self, model):
                self._model = model

            @property
            def module(self):
                return self._model
        """,
        "train.py": SHARD + """
        from engine import Engine

        def step(model, batch):
            for block in model.layers:
                fully_shard(block)
            fully_shard(model)
            engine = Engine(model)
            return engine.module.forward(batch)
        """,
    }
    assert _lint(files) == [("train.py", 10, "FSD201")]


@pytest.mark.parametrize("sharding, expected", [("None", []), ("Sharding()", [("train.py", 12, "FSD203")])])
def test_a_configuration_a_plain_module_returns_decides_the_branch_that_shards(sharding, expected):
    """`load_config()` of a module with nothing sharded (dataclasses, no torch) decides whether
    the model is sharded with FSDP2 or wrapped with FSDP1: the module is entered because the
    branch holding the shard reads what it returned, and the FSDP1 API after it is reported only
    where the configuration asks for FSDP2."""
    files = {
        "settings.py": f"""
        from dataclasses import dataclass
        from typing import Optional

        @dataclass
        class Sharding:
            reshard_after_forward: bool = True

        @dataclass
        class RunConfig:
            lr: float = 3e-4
            sharding: Optional[Sharding] = None

        def load_config():
            return RunConfig(lr=1e-4, sharding={sharding})
        """,
        "train.py": SHARD + """
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
        from settings import load_config

        def build(model):
            cfg = load_config()
            if cfg.sharding is not None:
                fully_shard(model, reshard_after_forward=cfg.sharding.reshard_after_forward)
            else:
                model = FSDP(model, use_orig_params=True)
            with FSDP.summon_full_params(model):
                pass
            return model
        """,
    }
    assert _lint(files) == expected


def test_initialising_every_part_of_a_meta_model_initialises_it():
    """`to_empty` then `reset_parameters()` on each part (the model's own leaves and each block's)
    is an initialised model: the model is as far from the meta device as any part of it may be.
    Without the part initialisation the forward in `train` reads uninitialised memory."""
    files = {
        "model.py": """
        from torch import nn

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(8, 8)

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.inp = nn.Linear(8, 8)
                self.layers = nn.ModuleList([Block(), Block()])
        """,
        "train.py": SHARD + """
        import torch
        from model import Model

        def train(model, batch):
            return model(batch).sum()

        def main(batch):
            with torch.device("meta"):
                model = Model()
            for block in model.layers:
                fully_shard(block)
            fully_shard(model)
            model.to_empty(device="cuda")
            model.inp.reset_parameters()
            for block in model.layers:
                block.fc1.reset_parameters()
            train(model, batch)
        """,
    }
    assert _lint(files) == []
    forgotten = dict(files, **{"train.py": files["train.py"].replace("model.inp.reset_parameters()", "pass").replace("block.fc1.reset_parameters()", "pass")})
    assert _lint(forgotten) == [("train.py", 7, "FSD105")]


def test_a_parameter_replaced_after_the_optimizer_is_named_as_such():
    """FSD202 for new parameters says what replaced them, not `fully_shard`."""
    files = {"train.py": SHARD + """
    import torch
    from torch import nn

    def main():
        model = Net()
        fully_shard(model)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        model.fc.weight = nn.Parameter(torch.zeros(8, 8))
        optimizer.step()
    """}
    result = lint_sources({path: _source(text) for path, text in files.items()}, LintOptions())
    [finding] = [v for v in result.violations if v.code == "FSD202"]
    assert "before line 10 replaces them with new parameters" in finding.message, finding.message


def test_functions_that_call_each_other_and_nothing_else_calls_are_entry_points():
    """Two functions that call each other, which no code of the tree calls, are each analysed
    in the context of an unknown caller: the violation inside them is found (once, also when a
    caller in the tree makes them ordinary callees), and their clean look-alike is silent."""
    mutual = SHARD + """
    import torch

    def shard_all(module, depth):
        optimizer = torch.optim.AdamW(module.parameters())
        fully_shard(module)
        if depth > 0:
            again(module, depth - 1)
        return optimizer

    def again(module, depth):
        return shard_all(module, depth)
    """
    assert _lint({"shard.py": mutual}) == [("shard.py", 6, "FSD202")]
    assert _lint({"shard.py": mutual, "train.py": "from shard import shard_all\nshard_all(Model(), 2)\n"}) == [("shard.py", 6, "FSD202")]
    clean = SHARD + """
    import torch

    def shard_all(module, depth):
        if depth > 0:
            return again(module, depth - 1)
        fully_shard(module)
        return torch.optim.AdamW(module.parameters())

    def again(module, depth):
        return shard_all(module, depth)
    """
    assert _lint({"shard.py": clean}) == []


def test_an_equality_test_of_an_attribute_takes_the_same_arm_in_every_function_the_object_reaches():
    """`cfg.fsdp_version == 2` fixes "fsdp_version of cfg equals 2" on each arm: a later test of
    it, in the same function, in a helper the caller hands `cfg` to, or in the caller of the
    helper that tested it, takes the arm that agrees. An equality decides the truth value
    (`== 2` true: truthy) and other equalities (`== 2` true: not `== 1`); `== 2` false leaves the
    truth value open (0 and 1 remain)."""
    wrap = SHARD + """
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    def wrap(model, cfg):
        if cfg.fsdp_version == 2:
            fully_shard(model)
            return model
        return FSDP(model)
    """
    step = """
    from wrap import wrap

    def clip(model, cfg):
        if {test}:
            model.clip_grad_norm_(1.0)

    def step(model, cfg):
        model = wrap(model, cfg)
        if {test}:
            model.clip_grad_norm_(1.0)
        clip(model, cfg)
    """
    fsdp1_arm = ["cfg.fsdp_version == 1", "cfg.fsdp_version != 2", "not cfg.fsdp_version", "cfg.fsdp_version not in (2, 3)", "1 == cfg.fsdp_version"]
    for test in fsdp1_arm:
        assert _lint({"wrap.py": wrap, "step.py": step.format(test=test)}) == [], test
    fsdp2_too = ["cfg.fsdp_version", "cfg.fsdp_version == 2", "cfg.fsdp_version != 1", "cfg.fsdp_version in (1, 2)"]
    for test in fsdp2_too:
        assert _lint({"wrap.py": wrap, "step.py": step.format(test=test)}) == [("step.py", 6, "FSD203"), ("step.py", 11, "FSD203")], test
    # the attribute of another object is another flag
    other = step.format(test="cfg.fsdp_version == 1").replace("clip(model, cfg)\n", "clip(model, cfg.eval)\n")
    assert _lint({"wrap.py": wrap, "step.py": other}) == [("step.py", 6, "FSD203")]


def test_a_flag_copied_into_an_object_or_a_variable_is_the_flag_itself():
    """`self.version = cfg.fsdp_version` in a constructor, and `version = cfg.fsdp_version`, hold
    the attribute of `cfg`: a test of the copy takes the arm that a test of the original took,
    here and in the methods of the object that holds the copy."""
    wrap = SHARD + """
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    def wrap(model, cfg):
        if cfg.fsdp_version == 2:
            fully_shard(model)
            return model
        return FSDP(model)
    """
    trainer = SHARD + """
    from wrap import wrap

    class Trainer:
        def __init__(self, model, cfg):
            self.version = cfg.fsdp_version
            if cfg.fsdp_version == 2:
                fully_shard(model)
            self.model = model

        def clip(self):
            if self.version {op} 1:
                self.model.clip_grad_norm_(1.0)

    def step(model, head, cfg):
        version = cfg.fsdp_version
        model = wrap(model, cfg)
        if version {op} 1:
            model.clip_grad_norm_(1.0)
        Trainer(head, cfg).clip()
    """
    assert _lint({"wrap.py": wrap, "trainer.py": trainer.format(op="==")}) == []
    assert _lint({"wrap.py": wrap, "trainer.py": trainer.format(op="!=")}) == [("trainer.py", 14, "FSD203"), ("trainer.py", 20, "FSD203")]


DIT = SHARD + """
import torch
from torch import nn

class DiT(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(4)])
        self.logvar_linear = nn.Linear(8, 1)

    def shard(self):
        for block in self.blocks:
            fully_shard(block)
        ROOT
"""
# Each way a dict of models reaches the code that shards them: the line that does is marked.
DICT_FORMS = {
    "items() of a literal": """
        for name, module in {"net": net, "ema": None}.items():
            if module is not None:
                module.shard()  # shards
    """,
    "values() of dict(...)": """
        models = dict(net=net)
        for module in models.values():
            module.shard()  # shards
    """,
    "keys() and an item": """
        models = {"net": net}
        for name in models.keys():
            models[name].shard()  # shards
    """,
    "the dict itself and an item": """
        models = {"net": net}
        for name in models:
            models[name].shard()  # shards
    """,
    "a callee iterating items()": """
        shard_all({"net": net})  # shards
    """,
    "a callee reading an entry": """
        shard_net({"net": net})  # shards
    """,
}
HELPERS = """
def shard_all(models):
    for name, module in models.items():
        module.shard()

def shard_net(models):
    models["net"].shard()
"""


@pytest.mark.parametrize("form", sorted(DICT_FORMS))
def test_a_dict_keeps_the_objects_it_holds_through_iteration_and_calls(form):
    """Property 4: a dict with constant keys holds its objects, in its items, its values, its
    entries by key, and in a callee it is passed to; iterating it runs each entry in turn."""
    body = textwrap.indent(textwrap.dedent(DICT_FORMS[form]).strip("\n"), "    ")
    train = "import torch\nfrom model import DiT\n" + HELPERS + "\ndef main(x):\n    net = DiT()\n" + body + (
        "\n    optimizer = torch.optim.AdamW(net.parameters())\n    net(x).sum().backward()\n    optimizer.step()\n"
    )
    line = next(n for n, text in enumerate(train.splitlines(), start=1) if text.endswith("# shards"))
    files = {"model.py": DIT.replace("ROOT", "pass"), "train.py": train}
    assert _lint(files) == [("train.py", line, "FSD103")]
    files["model.py"] = DIT.replace("ROOT", "fully_shard(self)")
    assert _lint(files) == []


def test_an_object_a_call_builds_shards_and_makes_final_is_reported_once_in_there():
    """Property 2: a finding inside a callee is reported once, at the callee's line. A setup
    helper (or a constructor) that builds the model, shards only its blocks and builds the
    optimizer decides FSD103 itself; its caller, which trains what it gets back, adds nothing."""
    model = SHARD + """
    import torch
    from torch import nn

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(4)])
            self.lm_head = nn.Linear(8, 32)

    def shard_layers(model):
        for layer in model.layers:
            fully_shard(layer)

    def setup():
        model = LM()
        shard_layers(model)
        return model, torch.optim.AdamW(model.parameters())

    class Trainer:
        def __init__(self):
            self.model = LM()
            shard_layers(self.model)
            self.optimizer = torch.optim.AdamW(self.model.parameters())
    """
    train = """
    from model import Trainer, setup

    def main(batches):
        model, optimizer = setup()
        trainer = Trainer()
        for batch in batches:
            model(batch).sum().backward()
            optimizer.step()
            trainer.model(batch).sum().backward()
            trainer.optimizer.step()
    """
    assert _lint({"model.py": model, "train.py": train}) == [("model.py", 18, "FSD103"), ("model.py", 24, "FSD103")]


def test_an_object_a_constructor_stores_is_final_only_where_the_driver_makes_it_so():
    """`Trainer()` builds a model, shards its blocks and keeps it on `self`: the caller holds it
    through the trainer, so code elsewhere may still shard the root, until an optimizer over it
    (built in a later method the caller runs, `trainer.train()`, a method of the tree with a
    torch API's name) makes the plan final there."""
    trainer = SHARD + """
    import torch

    class LM(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(2)])
            self.head = torch.nn.Linear(4, 4)

    class Trainer:
        def __init__(self):
            self.model = LM()
            for layer in self.model.layers:
                fully_shard(layer)

        def train(self):
            optimizer = torch.optim.AdamW(self.model.parameters())
            optimizer.step()
    """
    assert _lint({"trainer.py": trainer, "main.py": "from trainer import Trainer\ntrainer = Trainer()\n"}) == []
    assert _lint({"trainer.py": trainer, "main.py": "from trainer import Trainer\ntrainer = Trainer()\ntrainer.train()\n"}) == [("main.py", 2, "FSD103")]


def test_isinstance_fsdpmodule_takes_the_arm_the_sharding_state_decides():
    """`fully_shard(m)` makes `m` (and only `m`) an `FSDPModule`: `isinstance(m, FSDPModule)`
    takes its true arm where `m` itself was sharded on every run to the test, its false arm where
    no run to it sharded `m` and the walk knows what `m` is, both arms otherwise; where one branch
    outcome decides whether `m` was sharded, the arms take that outcome and its opposite. The false
    arm is on no run that sharded `m` (torch makes it an `FSDPModule` last): a shard of `m` on
    some runs only (in a loop, a `try`, `fully_shard(m if c else n)`) comes before neither."""
    prepare = SHARD + """
    from torch.distributed.fsdp import FSDPModule

    def prepare(model):
        if isinstance(model, FSDPModule):
            return model
        for block in model.layers:
            fully_shard(block)
        fully_shard(model)
        return model
    """
    model = """
    from torch import nn

    class Transformer(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(4)])

    class Wrapper(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = Transformer()
            self.layers = nn.ModuleList([self.inner])
    """
    twice = "from model import Transformer\nfrom prepare import prepare\n\ndef main():\n    model = Transformer()\n    model = prepare(model)\n    prepare(model)\n"
    assert _lint({"model.py": model, "prepare.py": prepare, "train.py": twice}) == []
    # a module inside a sharded one is not an FSDPModule: sharded after its parent
    inner = SHARD + """
    from torch.distributed.fsdp import FSDPModule
    from model import Wrapper

    def main():
        model = Wrapper()
        fully_shard(model)
        if isinstance(model.inner, FSDPModule):
            return model
        fully_shard(model.inner)
    """
    # (FSD102's finding; no FSD101: the shard of `model` before it makes `model.inner` one unit of a plan)
    assert _lint({"model.py": model, "train.py": inner}) == [("train.py", 11, "FSD102")]
    local = SHARD + """
    from torch import nn
    from torch.distributed.fsdp import FSDPModule

    def main(items, shard_root):
        model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
        SHARD_ROOT
        if isinstance(model, FSDPModule):
            return model
        for block in model.layers:
            fully_shard(block)
        fully_shard(model)
    """
    sharded_on_every_run = ["fully_shard(model)", "if shard_root:\n            fully_shard(model)"]
    for shard in sharded_on_every_run + ["with no_sync():\n            fully_shard(model)"]:
        assert _lint({"f.py": local.replace("SHARD_ROOT", shard)}) == [], shard
    sharded_on_some_runs = [
        "for _ in items:\n            fully_shard(model)",
        "try:\n            fully_shard(model)\n        except RuntimeError:\n            pass",
        "fully_shard(model if items else nn.Linear(8, 8))",
    ]
    for shard in sharded_on_some_runs:
        assert _lint({"f.py": local.replace("SHARD_ROOT", shard)}) == [], shard
        # on the runs that sharded it, a block sharded with no test in between comes after it
        unguarded = local.replace("SHARD_ROOT", shard).replace("if isinstance(model, FSDPModule):\n            return model", "print(model)\n        print(items)")
        assert _lint({"f.py": unguarded}) == [("f.py", 12 + shard.count("\n"), "FSD102")], shard
    # an object of unknown origin may be an FSDPModule already: both arms
    unknown = local.replace("model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))", "model = load_policy()").replace("SHARD_ROOT", "pass")
    assert _lint({"f.py": unknown}) == []
    negated = local.replace("SHARD_ROOT", "if shard_root:\n            fully_shard(model)").replace(
        "if isinstance(model, FSDPModule):\n            return model", "if not isinstance(model, FSDPModule):\n            fully_shard(model)"
    )
    assert _lint({"f.py": negated}) == [("f.py", 13, "FSD102")]


def test_setattr_and_getattr_with_a_constant_name_are_an_attribute_write_and_read():
    """`setattr(obj, "name", v)`, `getattr(obj, "name"[, default])` and `hasattr(obj, "name")`
    write and read `obj.name`; the default (and False) where the object provably has no such
    attribute: built here, of a class of the tree none of whose classes binds the name."""
    shard = SHARD + """
    def shard(model):
        target = model.model if getattr(model, "is_actor", False) else model
        fully_shard(target)
        return target
    """
    train = """
    from shard import shard
    SHARD

    def main():
        actor = Actor()
        MARK
        shard(actor)
        fully_shard(actor.model.layers[0])
    """.replace("SHARD\n", SHARD)
    for mark in ['setattr(actor, "is_actor", False)', "actor.is_actor = False"]:
        assert _lint({"shard.py": shard, "train.py": train.replace("MARK", mark)}) == [("train.py", 9, "FSD102")], mark
    for mark in ['setattr(actor, "is_actor", True)', "actor.is_actor = True"]:
        assert _lint({"shard.py": shard, "train.py": train.replace("MARK", mark)}) == [("train.py", 9, "FSD102")], mark
    layers = train.replace("actor.model.layers[0]", "actor.layers[0]")
    assert _lint({"shard.py": shard, "train.py": layers.replace("MARK", 'setattr(actor, "is_actor", True)')}) == []
    assert _lint({"shard.py": shard, "train.py": layers.replace("MARK", 'setattr(actor, "is_actor", False)')}) == [("train.py", 9, "FSD102")]
    # never set, on an object whose classes are all in the tree and never bind it: the default
    options = SHARD + """
    class Options:
        def __init__(self):
            self.reshard = True

    def main(model):
        options = Options()
        if hasattr(options, "wrap_blocks_first") or getattr(options, "wrap_blocks_first", False):
            for block in model.layers:
                fully_shard(block)
        fully_shard(model)
        for block in model.layers:
            fully_shard(block)
    """
    assert _lint({"f.py": options}) == [("f.py", 14, "FSD102")]
    assert _lint({"f.py": options.replace("self.reshard = True", "self.wrap_blocks_first = True")}) == [("f.py", 14, "FSD102")]


def test_a_test_that_tells_apart_the_modules_a_name_may_be_narrows_it_on_each_arm():
    """`model` is a wrapper on one path and a sharded module on the other; a test that hands it
    to a call (`isinstance`, or a helper that returns a constant by its class) runs once for
    each, and each arm sees only the modules that take it: the wrapper's own `clip_grad_norm_`
    under the test is clean, the same call where the sharded module takes the arm is reported."""
    wrap = SHARD + """
    from torch import nn

    class LocalWrapper(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def clip_grad_norm_(self, max_norm):
            return nn.utils.clip_grad_norm_(self.module.parameters(), max_norm)

    def version(model):
        if isinstance(model, LocalWrapper):
            return 0
        return 2

    def wrap(model, shard):
        if shard:
            fully_shard(model)
            return model
        return LocalWrapper(model)
    """
    step = """
    from model import Transformer
    from wrap import LocalWrapper, version, wrap

    def step(shard):
        model = wrap(Transformer(), shard)
        if {test}:
            model.clip_grad_norm_(1.0)
    """
    model = "from torch import nn\n\nclass Transformer(nn.Module):\n    pass\n"
    for test in ["isinstance(model, LocalWrapper)", "version(model) == 0", "not version(model)", "version(model) != 2"]:
        assert _lint({"model.py": model, "wrap.py": wrap, "step.py": step.format(test=test)}) == [], test
    for test in ["not isinstance(model, LocalWrapper)", "version(model) == 2", "version(model)"]:
        assert _lint({"model.py": model, "wrap.py": wrap, "step.py": step.format(test=test)}) == [("step.py", 8, "FSD203")], test


def test_a_tuple_returned_on_some_paths_keeps_its_items_where_it_is_unpacked():
    """Property 2: `model, optimizer = build(cfg)` binds the items of the tuple `build` returns on
    the paths where it returns one of two items; a path that returns None or a longer tuple would
    raise at the unpacking, so it adds nothing."""
    build = SHARD + """
    import torch

    def build(cfg):
        if cfg is None:
            return None
        model = LM()
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        optimizer = torch.optim.AdamW(model.parameters())
        if cfg.scheduler:
            return model, optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
        return model, optimizer
    """
    train = """
    from build import build

    def main(cfg, batch):
        model, optimizer = build(cfg)
        model.forward(batch).sum().backward()
        optimizer.step()
    """
    assert _lint({"build.py": build, "train.py": train}) == [("train.py", 6, "FSD201")]
    assert _lint({"build.py": build, "train.py": train.replace("model.forward(batch)", "model(batch)")}) == []


def test_a_module_global_is_the_object_its_top_level_bound_it_to_in_functions_and_importers():
    """`MODEL = fully_shard(...)` binds the global to the object the call was given, `TRAINER =
    Trainer()` to an object whose constructor sharded its `model`: a function of the module sees
    them as the top level left them where it is called (through the functions it calls too),
    and an importer, whose import returns after the whole top level ran, as it left them at its end."""
    utils = SHARD + """
    import os
    import torch

    class Trainer:
        def __init__(self):
            self.model = fully_shard(torch.nn.Linear(2, 2))

    def early():
        LATE.forward(x)                  # called before LATE is sharded

    early()
    LATE = torch.nn.Linear(2, 2)
    fully_shard(LATE)
    TRAINER = Trainer()
    MODEL = fully_shard(torch.nn.Linear(2, 2))
    if os.environ.get("SHARD"):
        EITHER = fully_shard(torch.nn.Linear(2, 2))
    else:
        EITHER = torch.nn.Linear(2, 2)
    PLAIN = fully_shard(torch.nn.Linear(3, 3))
    PLAIN = torch.nn.Linear(3, 3)        # rebound: the sharded one is gone

    def step():
        MODEL.forward(x)
        TRAINER.model.forward(x)
        EITHER.forward(x)                # one of its values is sharded
        PLAIN.forward(x)

    def run():
        step()

    run()
    """
    importer = """
    import utils
    from utils import TRAINER, PLAIN

    def evaluate():
        TRAINER.model.forward(x)
        utils.MODEL.forward(x)
        PLAIN.forward(x)
    """
    assert _lint({"utils.py": utils, "evaluate.py": importer}) == [
        ("evaluate.py", 6, "FSD201"), ("evaluate.py", 7, "FSD201"),
        ("utils.py", 26, "FSD201"), ("utils.py", 27, "FSD201"), ("utils.py", 28, "FSD201"),
    ]


def test_an_imported_global_is_what_its_top_level_left_once_the_modules_it_calls_are_entered():
    """`helpers` is entered only once the analysis learns that it receives a sharded model: the
    global it hands back, and the importer's function that forwards it, are then known sharded."""
    files = {
        "helpers.py": "def prepare(model):\n    model.train()\n    return model\n",
        "state.py": SHARD + "import torch\nimport helpers\nMODEL = helpers.prepare(fully_shard(torch.nn.Linear(2, 2)))\n",
        "evaluate.py": "from state import MODEL\n\ndef evaluate(x):\n    return MODEL.forward(x)\n",
    }
    assert _lint(files) == [("evaluate.py", 4, "FSD201")]


def test_a_base_method_called_through_its_class_runs_on_the_object_passed():
    """Property 3: `Base.shard(self)` in an override runs the base's method on this object (its
    first argument is `self`), in the order the override calls it."""
    trainer = SHARD + """
    import torch

    class Base:
        def __init__(self, model):
            self.model = model

        def shard(self):
            for block in self.model.layers:
                fully_shard(block)
            fully_shard(self.model)

    class Trainer(Base):
        def shard(self):
            self.optimizer = torch.optim.AdamW(self.model.parameters())
            Base.shard(self)

    def main(model):
        Trainer(model).shard()
    """
    assert _lint({"trainer.py": trainer}) == [("trainer.py", 16, "FSD202")]
    after = trainer.replace(
        "            self.optimizer = torch.optim.AdamW(self.model.parameters())\n            Base.shard(self)\n",
        "            Base.shard(self)\n            self.optimizer = torch.optim.AdamW(self.model.parameters())\n",
    )
    assert after != trainer and _lint({"trainer.py": after}) == []


def test_super_runs_the_next_method_after_the_calling_class():
    """Property 3: `super().setup()` in `Mid` runs `Base.setup` on the same object, not `Leaf`'s
    override (which called `Mid.setup` through `super()` itself); `super(Mid, self)` is the same
    call. The optimizer `Base.setup` builds comes before or after the sharding as `Mid` orders
    the two."""
    trainers = SHARD + """
    import torch

    class Base:
        def __init__(self, model):
            self.model = model

        def setup(self):
            self.optimizer = torch.optim.AdamW(self.model.parameters())

    class Mid(Base):
        def setup(self):
            super().setup()
            fully_shard(self.model)

    class Leaf(Mid):
        def setup(self):
            super().setup()
            self.model.train()

    def main(model):
        Leaf(model).setup()
    """
    assert _lint({"trainers.py": trainers}) == [("trainers.py", 14, "FSD202")]
    assert _lint({"trainers.py": trainers.replace("super().setup()\n            fully_shard", "super(Mid, self).setup()\n            fully_shard")}) == [("trainers.py", 14, "FSD202")]
    shard_first = trainers.replace(
        "            super().setup()\n            fully_shard(self.model)\n", "            fully_shard(self.model)\n            super().setup()\n",
    )
    assert shard_first != trainers and _lint({"trainers.py": shard_first}) == []


def test_a_base_constructor_run_by_super_init_shards_the_object():
    """Property 3: `super().__init__()` runs the base's `__init__` of the tree on the object
    being built, so what it shards is sharded for whoever builds a subclass."""
    files = {
        "base.py": SHARD + """
        from torch import nn

        class ShardedLM:
            def __init__(self, dim):
                self.model = nn.Sequential(nn.Linear(dim, dim), nn.Linear(dim, dim))
                for layer in self.model:
                    fully_shard(layer)
                fully_shard(self.model)
        """,
        "lm.py": """
        from base import ShardedLM

        class LoRALM(ShardedLM):
            def __init__(self, dim, rank):
                super().__init__(dim)
                self.rank = rank
        """,
        "train.py": """
        import torch
        import torch.distributed as dist
        from lm import LoRALM

        def main():
            lm = LoRALM(1024, 8)
            if dist.get_rank() == 0:
                torch.save(lm.model.state_dict(), "lm.pt")
        """,
    }
    assert _lint(files) == [("train.py", 9, "FSD301")]
    files["train.py"] = files["train.py"].replace('"lm.pt"', 'f"lm_{dist.get_rank()}.pt"')
    assert _lint(files) == []


def test_an_inherited_driver_drives_a_subclass_that_no_code_of_the_tree_builds():
    """Property 3: a subclass that a registry builds (nothing in the tree calls its methods) is
    driven by the method it inherits from its base (`train`), in that method's order, with its
    own overrides: `self.save()` in `Base.train` is `Sub.save`. Where the base saves before it
    shards, the override's rank-0 save is clean."""
    trainer = SHARD + """
    import torch
    import torch.distributed as dist
    from torch import nn

    class Base:
        def prepare(self):
            self.model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
            for layer in self.model:
                fully_shard(layer)
            fully_shard(self.model)

        def save(self):
            pass

        def train(self):
            self.prepare()
            self.save()

    class Sub(Base):
        def save(self):
            if dist.get_rank() == 0:
                torch.save(self.model.state_dict(), "model.pt")
    """
    assert _lint({"trainer.py": trainer}) == [("trainer.py", 24, "FSD301")]
    save_first = trainer.replace("            self.prepare()\n            self.save()\n", "            self.save()\n            self.prepare()\n")
    assert save_first != trainer and _lint({"trainer.py": save_first}) == []


def test_copies_of_a_sharded_modules_parameters_are_its_shards():
    """Property 2: `param.detach().clone()` (or `.cpu()`, `.to(...)`) of a parameter of a sharded
    module is a DTensor holding this rank's shard, so a rank-0 save of a dict of them is FSD301;
    `full_tensor()` gathers the whole parameter, and its copies are clean."""
    ema = SHARD + """
    import torch
    import torch.distributed as dist

    def snapshot(model):
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        ema = {}
        for name, param in model.named_parameters():
            ema[name] = param.detach().clone().cpu()
        if dist.get_rank() == 0:
            torch.save(ema, "ema.pt")
    """
    assert _lint({"ema.py": ema}) == [("ema.py", 14, "FSD301")]
    gathered = ema.replace("param.detach().clone().cpu()", "param.full_tensor().detach().cpu()")
    assert gathered != ema and _lint({"ema.py": gathered}) == []


def test_a_state_dict_kept_on_self_is_saved_in_a_later_method():
    """Property 3: a state dict taken in one method and stored on `self` is that module's state
    dict in the methods the driver calls later (with the module's sharding); a full state dict
    gathered with `StateDictOptions(full_state_dict=True)` is clean."""
    trainer = SHARD + """
    import torch
    import torch.distributed as dist

    class Trainer:
        def __init__(self, model):
            self.model = model

        def prepare(self):
            for layer in self.model.layers:
                fully_shard(layer)
            fully_shard(self.model)
            self.snapshot = self.model.state_dict()

        def save(self):
            if dist.get_rank() == 0:
                torch.save({"model": self.snapshot}, "snapshot.pt")

    def main(model):
        trainer = Trainer(model)
        trainer.prepare()
        trainer.save()
    """
    assert _lint({"trainer.py": trainer}) == [("trainer.py", 18, "FSD301")]
    full = trainer.replace(
        "    import torch.distributed as dist\n",
        "    import torch.distributed as dist\n    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict\n",
    ).replace("self.model.state_dict()", "get_model_state_dict(self.model, options=StateDictOptions(full_state_dict=True))")
    assert "get_model_state_dict(self.model" in full and _lint({"trainer.py": full}) == []


def _line(text: str, part: str) -> int:
    """The line of a file's text (as `_source` writes it) on which `part` first stands."""
    return next(number for number, line in enumerate(_source(text).splitlines(), 1) if part in line)


def test_each_object_a_name_may_be_after_a_join_takes_the_calls_and_writes_made_through_it():
    """`model = Encoder()` on one branch and `FusedEncoder()` on another (or `A() if c else B()`):
    a forward through `model`, a cast, a new parameter set on it, `p.data = ...` of its
    parameters and a tie of two of its parameters are made on whichever object `model` is, here
    as where one object was built (in a helper it is passed to, only where it was one object)."""
    bind = {
        "if": "model = Encoder()\n        if use_te:\n            model = FusedEncoder()",
        "if-else": "if use_te:\n            model = FusedEncoder()\n        else:\n            model = Encoder()",
        "ternary": "model = FusedEncoder() if use_te else Encoder()",
        "one": "model = Encoder()",
    }
    train = SHARD + """
    import torch
    from torch import nn
    from encoders import Encoder, FusedEncoder
    from helpers import cast

    def main(batch, use_te):
        BIND
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        model(batch).sum().backward()
        MUTATE
    """
    encoders = "from torch import nn\n\nclass Encoder(nn.Module):\n    pass\n\nclass FusedEncoder(nn.Module):\n    pass\n"
    helpers = "import torch\n\ndef cast(model):\n    model.to(torch.bfloat16)\n"
    mutate = [
        "model.half()",
        "model.to(torch.bfloat16)",
        "model.head.weight = nn.Parameter(torch.zeros(8, 8))",
        'setattr(model, "scale", nn.Parameter(torch.ones(1)))',
        "for p in model.parameters():\n            p.data = p.data.float()",
    ]
    for form, binding in bind.items():
        source = train.replace("BIND", binding)
        for change in mutate:
            text = source.replace("MUTATE", change)
            expected = [("train.py", _line(text, change.splitlines()[-1].strip()), "FSD204")]
            assert _lint({"encoders.py": encoders, "helpers.py": helpers, "train.py": text}) == expected, (form, change)
        # in a helper the model is passed to after the forward: only where one object was built
        # (a callee is not told which of several objects ran a forward; REALWORLD "Open")
        helped = [("helpers.py", 4, "FSD204")] if form == "one" else []
        assert _lint({"encoders.py": encoders, "helpers.py": helpers, "train.py": source.replace("MUTATE", "cast(model)")}) == helped, form
        # before the first forward, FSDP's lazy initialisation adopts the cast
        before = source.replace("MUTATE", "").replace("model(batch)", "cast(model)\n        model(batch)")
        assert _lint({"encoders.py": encoders, "helpers.py": helpers, "train.py": before}) == [], form
    tie = SHARD + """
    def main(use_te):
        model = Transformer()
        if use_te:
            model = FusedTransformer()
        model.lm_head.weight = model.embed.weight
        fully_shard(model.embed)
        fully_shard(model)
    """
    assert _lint({"train.py": tie}) == [("train.py", 9, "FSD104")]
    assert _lint({"train.py": tie.replace("fully_shard(model.embed)", "pass")}) == []


def test_isinstance_is_decided_from_the_class_each_value_was_built_from():
    """`model` is sharded with `fully_shard` on one path and wrapped on the other (dion's
    `train.py`): a value built by a wrapper's constructor (DDP, FSDP1's, a class of the tree) is
    of that class, a module of a known class is no wrapper (sharding keeps its class), and it is
    an `FSDPModule` on the runs that sharded it, which are the runs on which the name holds it:
    a test of either class tells the two apart, and the wrapper's own API under it is clean."""
    train = SHARD + """
    import torch
    from torch import nn
    from torch.distributed.fsdp import FSDPModule, FullyShardedDataParallel as FSDP
    from torch.nn.parallel import DistributedDataParallel as DDP

    class LocalDDP(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

    def main(mesh, x):
        model = nn.Linear(4, 4)
        BIND
        loss = model(x).sum()
        if TEST:
            with model.no_sync():
                loss.backward()
    """
    bind = {
        "if-else": "if mesh is not None:\n            fully_shard(model, mesh=mesh)\n        else:\n            model = WRAP(model)",
        "two ifs": "if mesh is not None:\n            fully_shard(model, mesh=mesh)\n        if mesh is None:\n            model = WRAP(model)",
    }
    for wrap in ["DDP", "FSDP", "LocalDDP"]:
        for form, binding in bind.items():
            source = train.replace("BIND", binding.replace("WRAP", wrap))
            line = _line(source, "model.no_sync()")
            for test in [f"isinstance(model, {wrap})", "not isinstance(model, FSDPModule)", f"isinstance(model, ({wrap}, LocalDDP))"]:
                assert _lint({"train.py": source.replace("TEST", test)}) == [], (wrap, form, test)
            for test in [f"not isinstance(model, {wrap})", "isinstance(model, FSDPModule)", f"isinstance(model, ({wrap}, FSDPModule))", "isinstance(model, nn.Module)"]:
                assert _lint({"train.py": source.replace("TEST", test)}) == [("train.py", line, "FSD203")], (wrap, form, test)
    # a class nothing is known of (built by unknown code) stays undecided: both arms may run
    unknown = train.replace("BIND", bind["if-else"].replace("WRAP", "wrap_model")).replace("TEST", "isinstance(model, DDP)")
    assert _lint({"train.py": unknown.replace("nn.Linear(4, 4)", "build_model()")}) == [("train.py", _line(unknown, "model.no_sync()"), "FSD203")]


def test_a_dcp_load_into_a_models_state_dict_initialises_the_model():
    """`dcp.load` loads in place into the tensors of the state dict it is given, so loading into
    `get_model_state_dict(model)` (lingua's `load_from_checkpoint`, a helper that fills a dict
    under a key it is passed) initialises a model that `to_empty` left uninitialised; loading
    into another module's state dict does not."""
    helper = """
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint.state_dict import get_model_state_dict

    def load_from_checkpoint(ckpt_dir, model, model_key="model"):
        state_dict = {}
        state_dict[model_key] = get_model_state_dict(model)
        dcp.load(state_dict, checkpoint_id=ckpt_dir)
    """
    train = SHARD + """
    import torch
    from torch import nn
    from ckpt import load_from_checkpoint

    def train(args, batch):
        with torch.device("meta"):
            model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4))
        teacher = nn.Linear(4, 4)
        fully_shard(model)
        model.to_empty(device="cuda")
        if args.init_ckpt_path:
            load_from_checkpoint(args.init_ckpt_path, LOADED)
        else:
            for layer in model:
                layer.reset_parameters()
        return model(batch)
    """
    assert _lint({"ckpt.py": helper, "train.py": train.replace("LOADED", "model")}) == []
    assert _lint({"ckpt.py": helper, "train.py": train.replace("LOADED", "teacher")}) == [("train.py", 18, "FSD105")]


@pytest.mark.parametrize("test", ['"mesh" in options', "len(options) > 1"])
@pytest.mark.parametrize("change, expected", [("", []), ("options.update(extra)", [("setup.py", 8, "FSD202")]), ('del options["reshard"]', [])])
def test_a_dict_of_known_keys_decides_membership_and_size_until_its_keys_change(test, change, expected):
    """`"mesh" in options` and `len(options) > 1` on a dict built with one key are false, so the
    model is never sharded after the optimizer is built; once `update` changed its keys (to what
    the walk does not follow), both arms may run. `del` of its key leaves it empty: still false."""
    setup = SHARD + f"""
    import torch

    def setup(model, extra):
        options = {{"reshard": True}}
        {change}
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        if {test}:
            fully_shard(model)
        return optimizer
    """
    assert _lint({"setup.py": setup, "train.py": "from setup import setup\nsetup(Model(), {})\n"}) == expected


@pytest.mark.parametrize(
    "compile_at, tested, reported",
    [
        ("", "torch.nn.DataParallel", False),
        ("", "(torch.nn.DataParallel, torch.nn.parallel.DistributedDataParallel)", False),
        ("", "torch._dynamo.eval_frame.OptimizedModule", False),
        ("", "list", False),
        ("", "torch.nn.Module", True),
        ("", "Stateful", True),  # a runtime-checkable Protocol: every module passes it
        ("train", "torch._dynamo.eval_frame.OptimizedModule", True),
        ("helper", "torch._dynamo.eval_frame.OptimizedModule", True),
        ("helper", "list", False),
    ],
)
def test_a_module_of_a_tree_class_over_nn_module_is_an_instance_of_its_bases_only_unless_compiled(compile_at, tested, reported):
    """An object built from a class of the tree whose only base outside it is `nn.Module` is an
    instance of exactly the classes of its MRO (and `FSDPModule` once sharded; torch 2.13:
    `isinstance(net, nn.DataParallel)`, `OptimizedModule`, `list` are false). `torch.compile`
    returns an `OptimizedModule` around the module, which the walk takes for the module itself:
    where it compiled the object (here, or in a helper that returns it), the test is open, and
    the wrapper's `_orig_mod` is the module."""
    ckpt = """
    import torch
    from torch.distributed.checkpoint.stateful import Stateful

    def save_checkpoint(path, model):
        if isinstance(model, TESTED):
            torch.save(model.state_dict(), path)
    """.replace("TESTED", tested)
    train = _NET_TRAINER + """
    def compiled(model):
        return torch.compile(model)

    def main():
        model = Net()
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        COMPILE
        save_checkpoint("ckpt", model)
    """.replace("COMPILE", {"": "pass", "train": "model = torch.compile(model)", "helper": "model = compiled(model)"}[compile_at])
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == ([("ckpt.py", 7, "FSD301")] if reported else [])
    unwrap = """
    import torch
    from torch.distributed.fsdp import FSDPModule

    def save_checkpoint(path, model):
        if isinstance(model, (torch.nn.DataParallel, torch.nn.parallel.DistributedDataParallel)):
            model = model.module
        if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
            model = model._orig_mod
        if not isinstance(model, FSDPModule):
            torch.save(model.state_dict(), path)
    """
    assert _lint({"ckpt.py": unwrap, "train.py": train}) == []


@pytest.mark.parametrize("kept_by", ["returned", "stored", "two_calls_down"])
@pytest.mark.parametrize("compile_it", [True, False])
def test_a_module_a_helper_builds_and_compiles_is_compiled_where_its_callers_get_it(kept_by, compile_it):
    """A summary keeps which of the helper's own objects `torch.compile` returned only where its
    caller can reach them (returned in a tuple, stored on an object it was given, or handed up
    through another call), not the scratch module it compiled and dropped: the caller's
    `isinstance(model, OptimizedModule)` stays open for the module it gets."""
    ckpt = """
    import torch

    def save_checkpoint(path, model):
        if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
            torch.save(model.state_dict(), path)
    """
    train = _NET_TRAINER + """
    class Holder:
        pass

    def build(holder):
        scratch = torch.compile(Net())  # compiled, and dropped
        model = Net()
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        COMPILE
        holder.model = model
        return model, scratch.training

    def build_twice_removed(holder):
        return build(holder)

    def main():
        holder = Holder()
        model, _ = CALL(holder)
        save_checkpoint("ckpt", USED)
    """.replace("COMPILE", "model = torch.compile(model)" if compile_it else "pass").replace(
        "CALL", "build_twice_removed" if kept_by == "two_calls_down" else "build"
    ).replace("USED", "holder.model" if kept_by == "stored" else "model")
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == ([("ckpt.py", 6, "FSD301")] if compile_it else [])


@pytest.mark.parametrize(
    "decided, reported",
    [
        ("any(is_sharded(m) for m in models)", False),
        ("all([is_sharded(m) for m in models])", False),
        ("any(is_sharded(m) for m in {type(m).__name__: m for m in models}.values())", False),
        ("any(is_sharded(m) for m in models if m.training)", True),  # may produce none
        ("any(is_sharded(m) for m in [])", True),  # produces none: false
        ("all(is_sharded(m) for m in [models[0], Probe()])", True),
    ],
)
def test_any_and_all_are_decided_from_the_truth_of_every_element(decided, reported):
    """`any(pred(m) for m in models)` over a literal list (or a dict built from it) whose every
    element makes `pred` true is true; it stays open where a filter may leave no element, is false
    over an empty one, and `all` is false where one element is false."""
    ckpt = """
    import torch
    from torch import nn
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict
    from torch.distributed.fsdp import FSDPModule

    class Probe(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(4, 1)

    def is_sharded(model):
        return isinstance(model, FSDPModule)

    def save_checkpoint(path, models, optimizer):
        if not isinstance(models, list):
            models = [models]
        if DECIDED:
            state = get_optimizer_state_dict(models[0], optimizer, options=StateDictOptions(full_state_dict=True))
        else:
            state = optimizer.state_dict()
        torch.save(state, path)
    """.replace("DECIDED", decided)
    train = _NET_TRAINER + """
    def main():
        model = Net()
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        optimizer = torch.optim.AdamW(model.parameters())
        save_checkpoint("ckpt", model, optimizer)
    """
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == ([("ckpt.py", 22, "FSD301")] if reported else [])


@pytest.mark.parametrize(
    "decided, reported",
    [
        ("any(is_sharded(m) for m in models)", False),
        ("all(is_sharded(m) for m in models)", False),
        ("any([is_sharded(m) for m in models])", False),
        ("any(is_sharded(m) for m in {type(m).__name__: m for m in models}.values())", False),
        ("any(is_sharded(m) for m in models if m.training)", True),  # may produce none
        ("any(is_sharded(m) for m in [models[0], Probe()])", True),  # open: one element joins both items' results
        ("all(is_sharded(m) for m in [models[0], Probe()])", True),  # false where the model is sharded
    ],
)
def test_any_and_all_of_a_helper_result_per_element_are_described_by_the_runs_of_each(decided, reported):
    """`any(is_sharded(m) for m in models)` where the model is sharded on some runs only: the
    helper gives True where the model is an `FSDPModule` and False where not, so the `any` (and
    the `all`) is True on the runs that shard it and False on the others, and the arm that
    saves the optimizer's own state dict holds none of the runs that sharded the model."""
    ckpt = """
    import torch
    from torch import nn
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict
    from torch.distributed.fsdp import FSDPModule

    class Probe(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(4, 1)

    def is_sharded(model):
        if isinstance(model, FSDPModule):
            return True
        return False

    def save_checkpoint(path, models, optimizer):
        if not isinstance(models, list):
            models = [models]
        if DECIDED:
            state = get_optimizer_state_dict(models[0], optimizer, options=StateDictOptions(full_state_dict=True))
        else:
            state = optimizer.state_dict()
        torch.save(state, path)
    """.replace("DECIDED", decided)
    train = _NET_TRAINER + """
    def main(world_size):
        model = Net()
        if world_size > 1:
            fully_shard(model)
        optimizer = torch.optim.AdamW(model.parameters())
        save_checkpoint("ckpt", model, optimizer)
    """
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == ([("ckpt.py", 24, "FSD301")] if reported else [])


@pytest.mark.parametrize("passed, reported", [("full", False), ("full.get('weights')", True), ("full.get('weights', {})", False)])
def test_a_full_state_dict_is_not_none_and_its_get_may_be(passed, reported):
    """A full state dict (and an entry of one) is no None, so a callee's `if state is not None`
    arm is the one taken where a caller passes one; `get` gives None (or its default) where the
    key is missing."""
    ckpt = """
    import torch
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

    def write(model, path, state=None):
        if state is None:
            state = model.state_dict()
        torch.save(state, path)

    def save_checkpoint(path, model):
        full = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
        write(model, path, PASSED)
    """.replace("PASSED", passed)
    train = _NET_TRAINER + """
    def main():
        model = Net()
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        save_checkpoint("ckpt", model)
    """
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == ([("ckpt.py", 8, "FSD301")] if reported else [])


def test_a_summary_cut_short_by_the_call_depth_is_not_what_a_shallower_call_gets():
    """Calls nested past the depth bound are unknown code. `prepare(model)` first reached at the
    bottom of a chain of fifteen helpers (its `shard` call past the bound) and then called
    directly with the same model, as it was: the direct call shards it, so the FSDP1 gather
    after it is reported; with the chain one helper shorter or longer it always was."""
    helpers = "\n".join(f"def stage{i}(model):\n    return stage{i - 1}(model)\n" for i in range(2, 16))
    files = {
        "prepare.py": SHARD + """
        def shard(model):
            fully_shard(model)
            return model


        def prepare(model):
            return shard(model)
        """,
        "train.py": "import torch\nfrom torch.distributed.fsdp import FullyShardedDataParallel as FSDP\nfrom prepare import prepare\n\n\n"
        "def stage1(model):\n    return prepare(model)\n\n\n" + helpers + "\n\nmodel = torch.nn.Linear(4, 4)\nstage15(model)\n"
        "model = prepare(model)\nwith FSDP.summon_full_params(model):\n    pass\n",
    }
    line = files["train.py"].splitlines().index("with FSDP.summon_full_params(model):") + 1
    assert _lint(files) == [("train.py", line, "FSD203")]


_WRAPPED_BY_ENVIRONMENT = """
import os
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, fully_shard


def wrap(model):
    if os.environ.get("FSDP_VERSION", "1") == "2":
        fully_shard(model)
        return model
    return FSDP(model)
"""

_GATHERED_BY_ENVIRONMENT = """
import os
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from setup import wrap


def gather(model):
    model = wrap(model)
    if os.getenv("FSDP_VERSION") != "2":
        with FSDP.summon_full_params(model):
            return model.state_dict()
    return model.state_dict()
"""


def test_a_variable_of_the_environment_is_one_value_on_a_run():
    """`os.environ.get(NAME, default)`, `os.getenv(NAME)` and `os.environ[NAME]` in any function
    of any module read one value on a run: tests of it take the same arm everywhere."""
    assert _lint({"setup.py": _WRAPPED_BY_ENVIRONMENT, "train.py": _GATHERED_BY_ENVIRONMENT}) == []
    subscript = _GATHERED_BY_ENVIRONMENT.replace('os.getenv("FSDP_VERSION") != "2"', 'os.environ["FSDP_VERSION"] != "2"')
    assert _lint({"setup.py": _WRAPPED_BY_ENVIRONMENT, "train.py": subscript}) == []
    # another variable is another input: the FSDP1 API is reached where FSDP_VERSION is "2"
    other = _GATHERED_BY_ENVIRONMENT.replace('os.getenv("FSDP_VERSION")', 'os.getenv("FSDP_MODE")')
    assert _lint({"setup.py": _WRAPPED_BY_ENVIRONMENT, "train.py": other}) == [("train.py", 10, "FSD203")]


def test_a_variable_the_tree_writes_is_no_input():
    """A variable some file of the tree sets (here a launcher nothing imports) may hold what
    was written by the time it is read: its reads are unknown values, tested independently."""
    launcher = 'import os\nimport subprocess\n\nos.environ["FSDP_VERSION"] = "2"\nsubprocess.run(["python", "train.py"])\n'
    files = {"setup.py": _WRAPPED_BY_ENVIRONMENT, "train.py": _GATHERED_BY_ENVIRONMENT, "launch.py": launcher}
    assert _lint(files) == [("train.py", 10, "FSD203")]
    for write in ('os.environ.setdefault("FSDP_VERSION", "2")', 'os.environ.update({"FSDP_VERSION": "2"})', 'os.putenv("FSDP_VERSION", "2")'):
        assert _lint({**files, "launch.py": launcher.replace('os.environ["FSDP_VERSION"] = "2"', write)}) == [("train.py", 10, "FSD203")]


def test_a_record_built_from_one_of_several_dicts_keeps_the_runs_of_each():
    """`Config(**args)` of a dict filled on one arm or another: each field holds its value on the
    runs of that arm, so a test of the field (`cfg.fsdp2 is not None`) and a test of what chose
    the arm take the same runs."""
    setup = """
    import os
    from dataclasses import dataclass
    from typing import Optional


    class Options1:
        pass


    class Options2:
        pass


    @dataclass
    class Config:
        fsdp: Optional[Options1] = None
        fsdp2: Optional[Options2] = None


    def parse_config():
        args = {}
        if os.environ.get("FSDP_VERSION", "1") == "2":
            args["fsdp2"] = Options2()
        else:
            args["fsdp"] = Options1()
        return Config(**args)
    """
    train = SHARD + """
    import os
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from setup import parse_config


    def gather(model):
        cfg = parse_config()
        if cfg.fsdp2 is not None:
            fully_shard(model)
        if os.getenv("FSDP_VERSION") != "2":
            with FSDP.summon_full_params(model):
                return model.state_dict()
        return None
    """
    assert _lint({"setup.py": setup, "train.py": train}) == []
    assert _lint({"setup.py": setup, "train.py": train.replace("if cfg.fsdp2 is not None:", "if cfg.fsdp is not None:")}) == [("train.py", 13, "FSD203")]


@pytest.mark.parametrize(
    "loop, listed, reported",
    [
        ("for m in models:", "[models]", False),
        ("for index, m in enumerate(models):", "[models]", False),
        ("for m in models:", "[*extra]", True),  # may hold nothing: the dict may stay `{}`, nothing sharded in it
    ],
)
def test_a_dict_built_in_a_loop_over_a_literal_list_holds_its_items(loop, listed, reported):
    """A loop over a list literal without `*` runs once per item (not zero times), `name in {}`
    is false whatever the name, a dict filled key by key from `{}` holds exactly what was
    stored, `len` counts a list literal, `enumerate` pairs its items with their indices, and
    `next` of a filter that keeps every element is the first: the sharded model passed alone is
    found sharded and its optimizer's state gathered full (physicsnemo's `save_checkpoint`).
    Where the list may be empty (`[*extra]`), the plain `optimizer.state_dict()` arm may run."""
    ckpt = """
    import torch
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict
    from torch.distributed.fsdp import FSDPModule

    def is_sharded(model):
        return isinstance(model, FSDPModule)

    def unique_names(models):
        by_class = {}
        LOOP
            name = type(m).__name__
            if name in by_class:
                by_class[name].append(m)
            else:
                by_class[name] = [m]
        named = {}
        for key, group in by_class.items():
            if len(group) > 1:
                for i, m in enumerate(group):
                    named[key + str(i)] = m
            else:
                named[key] = group[0]
        return named

    def save_checkpoint(path, models, optimizer, extra):
        named, sharded = {}, False
        if models:
            if not isinstance(models, list):
                models = LISTED
            named = unique_names(models)
            sharded = any(is_sharded(m) for m in named.values())
        if sharded:
            owner = next((m for m in named.values() if is_sharded(m)), None)
            if owner is not None:
                state = get_optimizer_state_dict(owner, optimizer, options=StateDictOptions(full_state_dict=True))
            else:
                state = optimizer.state_dict()
        else:
            state = optimizer.state_dict()
        torch.save(state, path)
    """.replace("LISTED", listed).replace("LOOP", loop)
    train = _NET_TRAINER + """
    def main(extra):
        model = Net()
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        optimizer = torch.optim.AdamW(model.parameters())
        save_checkpoint("ckpt", model, optimizer, extra)
    """
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == ([("ckpt.py", 41, "FSD301")] if reported else [])


@pytest.mark.parametrize(
    "model, reported",
    [
        ("Net()", False),
        ("Sized()", True),  # defines `__len__`: an object of it may be false
        # torch 2.13: Sequential, ModuleList, ModuleDict have a length: that of the children they
        # are built with where the call writes them out, else not known
        ("nn.Sequential(Net(), Net())", False),
        ("nn.Sequential(*[Net() for _ in range(2)])", True),
        ("nn.Sequential(Net(), Net()).to('cpu')", False),  # `.to` returns the module, of its class
    ],
)
def test_a_module_is_true_in_a_test_unless_its_class_gives_it_a_length(model, reported):
    """`if model:` with a module of a class whose hierarchy defines neither `__bool__` nor
    `__len__` (nn.Module, DDP and FSDPModule define none; torch 2.13, 2 gloo ranks: a
    `fully_shard`-ed module is true, an empty `ModuleList` false) takes its arm; for a class
    with a length it is open, unless the container is built with children written out
    (`bool(nn.Sequential(nn.ReLU()))` is True, `bool(nn.Sequential())` False)."""
    ckpt = """
    import torch
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict

    def save_checkpoint(path, model, optimizer):
        state = optimizer.state_dict()
        if model:
            state = get_optimizer_state_dict(model, optimizer, options=StateDictOptions(full_state_dict=True))
        torch.save(state, path)
    """
    train = SHARD + """
    import torch
    from torch import nn
    from ckpt import save_checkpoint

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

    class Sized(Net):
        def __len__(self):
            return 1

    def main():
        model = MODEL
        fully_shard(model)
        optimizer = torch.optim.AdamW(model.parameters())
        save_checkpoint("ckpt", model, optimizer)
    """.replace("MODEL", model)
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == ([("ckpt.py", 9, "FSD301")] if reported else [])


def test_a_dataclass_runs_its_post_init_after_its_fields_and_a_named_tuple_does_not():
    """`Holder(model=m)` of a `@dataclass` (called or not) assigns the fields, then runs
    `__post_init__`, which sees them; a NamedTuple's generated `__new__` runs no method of that
    name."""
    holder = SHARD + """
    from dataclasses import dataclass
    from typing import NamedTuple

    import torch


    @dataclass{decorator_args}
    class Holder{bases}:
        model: torch.nn.Module

        def __post_init__(self):
            self.model.to(torch.bfloat16)


    def main(model, batch):
        fully_shard(model)
        model(batch).sum().backward()
        Holder(model=model)
    """
    for decorator_args in ("", "(kw_only=True)"):
        source = holder.replace("{decorator_args}", decorator_args).replace("{bases}", "")
        assert _lint({"train.py": source}) == [("train.py", 14, "FSD204")]
    named_tuple = holder.replace("    @dataclass{decorator_args}\n", "").replace("{bases}", "(NamedTuple)")
    assert _lint({"train.py": named_tuple}) == []


def test_a_member_named_at_run_time_of_a_sharded_model_is_no_module_to_a_callee():
    """`getattr(sub_module, name)` over `named_modules()` of a sharded model may be a parameter
    (a tensor): the helper that casts it (two calls down) and uses the copy changes nothing FSDP
    manages. Given the sharded model itself, the same helper's cast is a module's, after the
    forward."""
    quant = """
    def quantize(weight):
        return weight / amax(weight)

    def amax(tensor):
        return tensor.float().abs().amax()
    """
    train = SHARD + """
    import torch
    from quant import quantize

    def export(model, names, whole):
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        model(torch.ones(2, 4)).sum().backward()
        for name, sub_module in model.named_modules():
            for weight_name in names:
                quantize(getattr(sub_module, weight_name))
        if whole:
            quantize(model)
    """
    assert _lint({"quant.py": quant, "train.py": train}) == [("quant.py", 6, "FSD204")]
    assert _lint({"quant.py": quant, "train.py": train.replace("quantize(model)", "pass")}) == []


@pytest.mark.parametrize("built", ["nn.Linear(4, 4)", "nn.GRU(4, 4)", "nn.ModuleList([nn.Linear(4, 4)])"])
def test_a_module_of_torch_nn_is_an_instance_of_no_builtin_type(built: str):
    """`isinstance(models, list)` on a `torch.nn` module is false (torch 2.13: no class of
    `torch.nn` derives from a builtin type), so `[models]` is the list the callee reads: the
    `FSDPModule` test over it decides which optimizer state is saved."""
    ckpt = """
    import torch
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict
    from torch.distributed.fsdp import FSDPModule

    def save_checkpoint(path, models, optimizer):
        if not isinstance(models, (list, tuple)):
            models = [models]
        if any(isinstance(m, FSDPModule) for m in models):
            state = get_optimizer_state_dict(models[0], optimizer, options=StateDictOptions(full_state_dict=True))
        else:
            state = optimizer.state_dict()
        torch.save(state, path)
    """
    train = SHARD + """
    import torch
    from torch import nn
    from ckpt import save_checkpoint

    def main():
        model = BUILT
        fully_shard(model)
        optimizer = torch.optim.Adam(model.parameters())
        save_checkpoint("ckpt.pt", model, optimizer)
    """.replace("BUILT", built)
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == []


def test_a_member_found_by_another_lookup_is_not_a_sharded_parent_in_a_callee():
    """`getattr(model, name)` in two loops, or in two turns of one loop, may find two different
    submodules: an earlier shard says nothing certain of what is handed to a helper next, so the
    helper that shards the layers of what it gets shards no child of a unit. Given a module
    sharded by name, it does."""
    train = SHARD + """
    def finish(block):
        for layer in block.layers:
            fully_shard(layer)

    def shard_by_name(model, first, second):
        for name in first:
            fully_shard(getattr(model, name))
        for name in second:
            finish(getattr(model, name))

    def shard_each(model, names):
        for name in names:
            block = getattr(model, name)
            finish(block)
            fully_shard(block)

    def shard_twice(model):
        fully_shard(model.encoder)
        finish(model.encoder)
    """
    assert _lint({"train.py": train}) == [("train.py", 5, "FSD102")]


def test_calling_contexts_built_from_empty_sets_share_one_empty_set_and_stay_equal():
    """A large tree builds over a hundred thousand contexts' and object facts' sets, most empty;
    each `frozenset()` is its own object, so the facts keep one shared empty set in their place.
    The facts must still compare and hash as the ones built with fresh sets (they key the memo)."""
    from fsdp_lint.analysis.context import Context, ObjectFacts

    facts = ObjectFacts("Model", frozenset([("layers",)]), certain=frozenset(), guessed=frozenset(set()))
    other = ObjectFacts("Model", frozenset([("layers",)]), certain=frozenset(), guessed=frozenset())
    assert facts.certain is other.guessed is facts.guessed is facts.forwarded
    assert facts.sharded == frozenset([("layers",)])
    context = Context((("model", facts),), frozenset(), (), (), frozenset(), frozenset(), frozenset())
    again = Context((("model", other),), frozenset(), (), (), frozenset(), frozenset(), frozenset())
    assert context.globals is again.not_none is again.outcomes is facts.certain
    assert context == again and hash(context) == hash(again) == hash(Context((("model", facts),)))


_UNWRAPPING_SAVE = """
import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.fsdp import FSDPModule


def _unwrap(model):
    if isinstance(model, (torch.nn.DataParallel, torch.nn.parallel.DistributedDataParallel)):
        model = model.module
    if isinstance(model, torch._dynamo.eval_frame.OptimizedModule):
        model = model._orig_mod
    return model


def save_checkpoint(path, model):
    model = _unwrap(model)
    if isinstance(model, FSDPModule):
        state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
        torch.save(state, path)
    else:
        torch.save(model.state_dict(), path)
"""


@pytest.mark.parametrize(
    "model, reported",
    [
        ("nn.Linear(4, 4)", False),
        ("nn.Sequential(nn.Linear(4, 4), nn.ReLU())", False),
        ("Net()", False),
        ("Net().to('cpu')", False),  # `.to` returns the module: a `Net` still
        ("nn.DataParallel(Net())", True),  # `.module` is the inner module, not the one sharded: not known
    ],
)
def test_an_instance_test_against_torchs_wrappers_is_decided_for_a_module_of_another_class(model, reported):
    """`isinstance(model, nn.DataParallel)` and `isinstance(model, OptimizedModule)` are false
    for a module of any other class of torch or of the tree (torch 2.13: no class of torch
    derives from either), so an unwrapping helper hands back the sharded module itself and the
    save takes the `FSDPModule` arm; a DataParallel wrapper is one, and its `.module` is not
    known to be the sharded module."""
    train = SHARD + """
    import torch
    from torch import nn
    from ckpt import save_checkpoint

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

    def main():
        model = MODEL
        fully_shard(model)
        save_checkpoint("ckpt", model)
    """.replace("MODEL", model)
    assert _lint({"ckpt.py": _UNWRAPPING_SAVE, "train.py": train}) == ([("ckpt.py", 21, "FSD301")] if reported else [])


@pytest.mark.parametrize("returned", ["module", "distribute_module(module, mesh)"])
def test_distribute_module_returns_the_module_it_is_given(returned):
    """`distribute_module(m, mesh, partition_fn)` turns m's parameters into DTensors in place and
    returns m (torch 2.13, checked on a 1-rank gloo mesh: `r is m`): what a builder returns
    after it is the module it built, of its class, so `if models:` of it is true."""
    ckpt = """
    import torch
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_optimizer_state_dict

    def save_checkpoint(path, models, optimizer):
        state = optimizer.state_dict()
        if models:
            state = get_optimizer_state_dict(models, optimizer, options=StateDictOptions(full_state_dict=True))
        torch.save(state, path)
    """
    train = SHARD + """
    import torch
    from torch import nn
    from torch.distributed.tensor import distribute_module
    from ckpt import save_checkpoint

    def build(mesh):
        module = nn.Linear(4, 4)
        module = RETURNED
        fully_shard(module)
        return module

    def main(mesh):
        model = build(mesh)
        optimizer = torch.optim.AdamW(model.parameters())
        save_checkpoint("ckpt", model, optimizer)
    """.replace("RETURNED", returned)
    assert _lint({"ckpt.py": ckpt, "train.py": train}) == []


def test_calling_an_object_runs_its_classs_call_or_forward_with_the_callers_facts():
    """`obj(x)` runs the class's `__call__` where the tree defines one, else its `forward`
    (`nn.Module.__call__` runs it between the hooks), on the object the caller holds: a sharded
    model stored in it is sharded there, and one called before the sharding is not."""
    files = {
        "losses.py": """
        class LossComputer:
            def __init__(self, model):
                self.model = model

            def __call__(self, batch):
                return self.model.forward(batch).sum()
        """,
        "heads.py": """
        from torch import nn

        class WithHead(nn.Module):
            def __init__(self, body):
                super().__init__()
                self.body = body
                self.head = nn.Linear(8, 2)

            def forward(self, x):
                return self.head(self.body.forward(x))
        """,
        "train.py": SHARD + """
        from heads import WithHead
        from losses import LossComputer

        def main(batch, model):
            fully_shard(model)
            compute = LossComputer(model)
            wrapped = WithHead(model)
            fully_shard(wrapped)
            return compute(batch) + wrapped(batch).sum()
        """,
    }
    assert _lint(files) == [("heads.py", 11, "FSD201"), ("losses.py", 7, "FSD201")]
    fixed = {
        "losses.py": files["losses.py"].replace("self.model.forward(batch)", "self.model(batch)"),
        "heads.py": files["heads.py"].replace("self.body.forward(x)", "self.body(x)"),
    }
    assert _lint(dict(files, **fixed)) == []
    before = SHARD + """
    from losses import LossComputer

    def main(batch, model):
        compute = LossComputer(model)
        loss = compute(batch)
        fully_shard(model)
        return loss
    """
    assert _lint({"losses.py": files["losses.py"], "train.py": before}) == []


@pytest.mark.parametrize("step_first", [False, True])
def test_an_optimizer_over_a_model_bound_on_two_arms_holds_each_on_its_arms_runs(step_first):
    """`net` is the meta model where no directory is given and a loaded one where it is, and the
    arm an `and` skips (`not loaded and not os.path.isdir(path)` false) is a disjunction that no
    run keeping the meta model takes: neither the forward nor `optimizer.step()` (an optimizer
    over `net.parameters()` holds the meta model only on its runs) is reported. With a third
    operand that such a run may fail (`and init`), both are."""
    model = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return x

        @classmethod
        def from_pretrained(cls, path):
            net = cls()
            net.load_state_dict(torch.load(path))
            return net
    """
    train = SHARD + """
    import os
    import torch
    from model import Net

    def main(pretrained, init):
        with torch.device("meta"):
            net = Net()
        loaded = False
        if os.path.isdir(pretrained):
            net = Net.from_pretrained(pretrained)
            loaded = True
        for block in net.blocks:
            fully_shard(block)
        fully_shard(net)
        if not loaded and not os.path.isdir(pretrained)INIT:
            net.to_empty(device="cpu")
            for block in net.blocks:
                block.reset_parameters()
        optimizer = torch.optim.AdamW(net.parameters())
        USE
    """
    use = "optimizer.step()" if step_first else "net(torch.randn(2, 8)).sum().backward()"
    train = train.replace("USE", use)
    assert _lint({"model.py": model, "train.py": train.replace("INIT", "")}) == []
    assert _lint({"model.py": model, "train.py": train.replace("INIT", " and init")}) == [("train.py", 22, "FSD105")]


def test_a_test_of_an_item_of_a_list_tells_of_the_item_until_it_is_sharded():
    """`hasattr(parts[0], "set_requires_gradient_sync")` false: no `fully_shard` of the items
    (the one a loop binds, `parts[*]`) ran, so FSDP1's `clip_grad_norm_` on that arm is no mistake;
    an item sharded on that arm afterwards is an `FSDPModule` again."""
    train = SHARD + """
    import torch
    from torch import nn

    class Stages(nn.Module):
        def __init__(self):
            super().__init__()
            self.parts = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def clip(stages):
        fsdp_version = 2 if hasattr(stages.parts[0], "set_requires_gradient_sync") else 1
        for part in stages.parts:
            if fsdp_version == 1:
                SHARD_HERE
                part.clip_grad_norm_(1.0)

    def main(use_fsdp2):
        stages = Stages()
        if use_fsdp2:
            for part in stages.parts:
                fully_shard(part)
        clip(stages)
    """
    assert _lint({"train.py": train.replace("SHARD_HERE", "pass")}) == []
    assert _lint({"train.py": train.replace("SHARD_HERE", "fully_shard(part)")}) == [("train.py", 16, "FSD203")]


def test_a_rank_test_a_run_leaves_by_is_worded_for_the_ranks_that_go_on():
    """`if rank != 0: return` lets rank 0 alone reach what follows: the message names the ranks
    that call the collective (`== 0`), not those that return; a negated flag is named as the flag."""
    early = SHARD + """
    import torch
    import torch.distributed as dist

    def sample(model, x):
        if dist.get_rank() != 0:
            return None
        return model(x)

    def sample_flag(model, x):
        main_rank = dist.get_rank() == 0
        if not main_rank:
            return None
        return model(x)

    def main():
        model = torch.nn.Linear(4, 4)
        fully_shard(model)
        sample(model, torch.randn(2, 4))
        sample_flag(model, torch.randn(2, 4))
    """
    result = lint_sources({"sample.py": _source(early)}, LintOptions())
    messages = sorted((v.line, v.message) for v in result.violations if v.code == "FSD206")
    assert [line for line, _ in messages] == [9, 15]
    assert "only the ranks where `dist.get_rank() == 0` holds" in messages[0][1]
    assert "only the ranks where `main_rank` holds" in messages[1][1]


def test_a_tie_is_an_assignment_of_a_parameter_not_of_a_configuration_number():
    # what a function assigns between two attributes of the model it shards: a module's weight
    # set to another's shares that parameter; a configuration's number copied shares nothing
    copied = """
    from torch.distributed.fsdp import fully_shard

    def build(model):
        model.config.hidden_size = model.language_model.config.hidden_size
        for layer in model.language_model.layers:
            fully_shard(layer)
        fully_shard(model.language_model)
        fully_shard(model)
    """
    assert _lint({"build.py": copied}) == []
    tied = copied.replace("model.config.hidden_size = model.language_model.config.hidden_size", "model.lm_head.weight = model.language_model.embed.weight")
    assert _lint({"build.py": tied}) == [("build.py", 9, "FSD104")]


@pytest.mark.parametrize("ddp_arm", [True, False])
@pytest.mark.parametrize("tested, reported", [("(FSDPModule, DDP)", False), ("DDP", True)])
def test_a_model_sharded_under_a_flag_the_callee_cannot_name_is_sharded_where_it_is_an_fsdpmodule(ddp_arm, tested, reported):
    """`if use_fsdp: <layers>; fully_shard(model)` in a helper: on the runs where `model` is no
    `FSDPModule` (a callee's `isinstance(model, (FSDPModule, DDP))` false) no layer was sharded
    either, though the callee cannot name the flag; a test that misses `FSDPModule` keeps the
    sharded model in its other arm."""
    prepare = SHARD + """
    from torch.nn.parallel import DistributedDataParallel as DDP

    def prepare(model, use_ddp, use_fsdp):
        if use_ddp:
            return DDP(model)
        if use_fsdp:
            for layer in model.layers:
                fully_shard(layer)
            fully_shard(model)
        return model
    """
    ckpt = """
    import torch
    from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
    from torch.distributed.fsdp import FSDPModule
    from torch.nn.parallel import DistributedDataParallel as DDP

    def save(model, path):
        if isinstance(model, TESTED):
            state = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
        else:
            state = model.state_dict()
        torch.save(state, path)
    """.replace("TESTED", tested)
    train = _NET_TRAINER.replace("from ckpt import save_checkpoint", "from ckpt import save\n    from prepare import prepare") + """
    def main(args):
        model = prepare(Net(), args.ddp, args.fsdp)
        save(model, "model.pt")
    """
    if not ddp_arm:
        prepare = prepare.replace("        if use_ddp:\n            return DDP(model)\n", "")
    assert _lint({"prepare.py": prepare, "ckpt.py": ckpt, "train.py": train}) == ([("ckpt.py", 12, "FSD301")] if reported else [])


@pytest.mark.parametrize(
    "grow, reported",
    [
        ("optimizers.append(AdamW(decay))\n        optimizers.append(AdamW(rest))", False),  # two entries: `len == 3` is false
        ("for group in (decay, rest):\n            optimizers.append(AdamW(group))", True),  # a loop's appends: entries not counted
        ("optimizers.append(AdamW(decay))\n        optimizers.append(AdamW(rest))\n        add_head_optimizer(optimizers)", True),  # a helper may append
    ],
)
def test_a_list_appended_to_in_straight_line_code_is_known_entry_by_entry(grow, reported):
    """Appends that every run passes once keep a list exact (its length known: a test of it is
    decided); appends in a loop, or a helper the list is handed to, leave each appended value
    one it may hold, any number of times. Either way a dict comprehension over its entries holds
    what its value is of each (tinyworlds' `{f"optimizer_{i}": o.state_dict() for i, o in
    enumerate(optimizers)}`)."""
    optim = """
    from torch.optim import AdamW

    def add_head_optimizer(optimizers):
        pass

    def create_optimizers(model):
        decay = [p for p in model.parameters() if p.ndim == 2]
        rest = [p for p in model.parameters() if p.ndim != 2]
        optimizers = []
        GROW
        return optimizers
    """.replace("GROW", grow)
    train = SHARD + """
    import torch
    from torch import nn
    from optim import create_optimizers

    def main():
        model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
        for layer in model:
            fully_shard(layer)
        fully_shard(model)
        optimizers = create_optimizers(model)
        if len(optimizers) == 3:
            torch.save({f"optimizer_{i}": o.state_dict() for i, o in enumerate(optimizers)}, "optimizers.pt")
        torch.save({f"optimizer_{i}": o.state_dict() for i, o in enumerate(optimizers)}, "all.pt")
    """
    expected = [("train.py", 14, "FSD301")] * reported + [("train.py", 15, "FSD301")]
    assert _lint({"optim.py": optim, "train.py": train}) == expected


def test_an_fsdp1_method_of_an_fsdp2_module_raises_and_ends_the_run():
    """`model.summon_full_params()` of a module that `fully_shard` made an `FSDPModule` on every
    run raises `AttributeError` (FSD203): the `with` body and what follows run on no run, so the
    save under it is not reported. FSDP1's static `FSDP.summon_full_params(model)` returns
    without gathering: the save after it writes shards (FSD301 as well)."""
    export = """
    import torch
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    def export(model, path):
        with model.summon_full_params(model, writeback=False):
            state = {name: p.detach().cpu() for name, p in model.named_parameters()}
        torch.save(state, path)
    """
    train = SHARD + """
    from torch import nn
    from export import export

    def main():
        model = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 8))
        for layer in model:
            fully_shard(layer)
        fully_shard(model)
        export(model, "full.pt")
    """
    assert _lint({"export.py": export, "train.py": train}) == [("export.py", 6, "FSD203")]
    static = export.replace("model.summon_full_params(model,", "FSDP.summon_full_params(model,")
    assert _lint({"export.py": static, "train.py": train}) == [("export.py", 6, "FSD203"), ("export.py", 8, "FSD301")]


def test_a_class_picked_from_a_module_level_registry_is_constructed():
    """A module-level dict whose values are classes of the tree, subscripted by a key known
    only at run time, is its class (one value): the call constructs it, so its methods are
    walked (`get_param_groups`, over the parameters `fully_shard` replaces later). A registry
    that some code of its module changes (`register`) holds classes the walk does not know."""
    models = """
    from torch import nn

    class GPT(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(2)])

        def get_param_groups(self):
            return [{"params": list(self.layers.parameters())}]

    MODEL_REGISTRY = {"gpt": GPT}
    """
    train = SHARD + """
    from torch.optim import AdamW
    from models import MODEL_REGISTRY

    def main(model_type):
        model = MODEL_REGISTRY[model_type](8)
        optimizer = AdamW(model.get_param_groups())
        for layer in model.layers:
            fully_shard(layer)
        fully_shard(model)
        return model, optimizer
    """
    assert _lint({"models.py": models, "train.py": train}) == [("train.py", 8, "FSD202")]
    registered = models + "\n    def register(name, cls):\n        MODEL_REGISTRY[name] = cls\n"
    assert _lint({"models.py": registered, "train.py": train}) == []


def test_a_finding_names_the_object_as_the_code_at_its_line_does():
    """A model a helper of another module built as `m` and returned is `actor` where the caller
    builds the optimizer over it, and `self.model` in a method that saves it from `self`: the
    message speaks the reader's names, not the helper's."""
    files = {
        "models.py": """
        import torch

        def build_model(dim):
            m = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.Linear(dim, dim))
            return m
        """,
        "train.py": SHARD + """
        import torch
        from models import build_model

        def main():
            actor = build_model(16)
            opt = torch.optim.AdamW(actor.parameters(), lr=1e-4)
            for layer in actor:
                fully_shard(layer)
            fully_shard(actor)
            return opt

        class Trainer:
            def __init__(self):
                self.model = build_model(16)
                for layer in self.model:
                    fully_shard(layer)
                fully_shard(self.model)

            def save(self, path):
                torch.save(self.model.state_dict(), path)

        if __name__ == "__main__":
            main()
            Trainer().save("model.pt")
        """,
    }
    found = lint_sources({path: _source(text) for path, text in files.items()}, LintOptions()).violations
    messages = {v.code: v.message for v in found}
    assert sorted(messages) == ["FSD202", "FSD301"]
    assert "over `actor`'s parameters" in messages["FSD202"]
    assert "`self.model`'s state dict" in messages["FSD301"]


def test_a_library_method_shards_its_model_only_where_the_library_says_so():
    """A Hugging Face model's `gradient_checkpointing_enable()` shards nothing: the root-only
    `fully_shard` after it is reported; transformers 5's `maybe_distribute_model` applies the
    model's FSDP plan, and a method given a function that shards may call it on submodules."""
    program = SHARD + """
    from transformers import AutoModelForCausalLM
    from parallel import shard_layer

    def build(path, cfg, mesh):
        model = AutoModelForCausalLM.from_pretrained(path)
        model.{call}
        fully_shard(model)
        return model
    """
    helper = SHARD + "def shard_layer(module):\n    fully_shard(module)\n"
    found = {
        call: _lint({"train.py": program.replace("{call}", call), "parallel.py": helper})
        for call in ("gradient_checkpointing_enable()", "maybe_distribute_model(model, cfg, mesh)", "visit_layers(shard_layer)")
    }
    assert found == {
        "gradient_checkpointing_enable()": [("train.py", 9, "FSD101")],
        "maybe_distribute_model(model, cfg, mesh)": [],
        "visit_layers(shard_layer)": [],
    }


def test_a_partial_assign_load_replaces_the_parameters_its_keys_name():
    """`load_state_dict(sd, strict=False, assign=True)` replaces the parameters whose keys `sd`
    holds and keeps the others (torch 2.13): where the keys are named, an optimizer built before
    it is reported only where the load replaces parameters it holds."""
    load = SHARD + """
    import torch

    def main(model, body_lr, loaded):
        fully_shard(model)
        whole = torch.optim.AdamW(model.parameters())
        body = torch.optim.AdamW(model.body.parameters(), lr=body_lr)
        LOAD
        whole.step()
        body.step()
    """
    head = 'model.load_state_dict({"head.weight": loaded}, strict=False, assign=True)'
    assert _lint({"t.py": load.replace("LOAD", head)}) == [("t.py", 7, "FSD202")]
    body = 'model.load_state_dict({"body.weight": loaded, "head.weight": loaded}, False, assign=True)'
    assert _lint({"t.py": load.replace("LOAD", body)}) == [("t.py", 7, "FSD202"), ("t.py", 8, "FSD202")]
    # keys read at run time (a resume from the tree's own full checkpoint): every parameter
    assert _lint({"t.py": load.replace("LOAD", "model.load_state_dict(loaded, strict=False, assign=True)")}) == [("t.py", 7, "FSD202"), ("t.py", 8, "FSD202")]
    assert _lint({"t.py": load.replace("LOAD", "model.load_state_dict(loaded, assign=True)")}) == [("t.py", 7, "FSD202"), ("t.py", 8, "FSD202")]
    whole = "model.load_state_dict(model.state_dict(), strict=False, assign=True)"
    assert _lint({"t.py": load.replace("LOAD", whole)}) == [("t.py", 7, "FSD202"), ("t.py", 8, "FSD202")]
