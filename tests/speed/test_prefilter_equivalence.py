"""The byte prefilter, the cache and `--jobs` change how much work a run does, never what it finds:
each tree here is linted with the prefilter and without it (every file parsed), and the findings
must be identical; the cross-module cases are the ones a per-file scan would miss."""

from __future__ import annotations

from typing import Dict, List, Tuple

import pytest

from fsdp_lint.engine import prefilter
from fsdp_lint.engine.lint import LintOptions, lint_paths, lint_sources
from fsdp_lint.engine.registry import all_rules
from tests.robustness.fsdp2_scripts import PROJECT, TRAIN_SCRIPT
from tests.static.helpers import write_tree

SHARD = "from torch.distributed.fsdp import fully_shard\n"

REGISTER = "class Register(dict):\n    def __call__(self, name):\n        def add(cls):\n            self[name] = cls\n            return cls\n\n        return add\n\n\nMODELS = Register()\n"
ENGINES = (
    "class Engines:\n    _engines = {}\n\n    @classmethod\n    def register(cls, name):\n        def add(engine):\n"
    "            cls._engines[name] = engine\n            return engine\n\n        return add\n\n"
    "    @classmethod\n    def lookup(cls, name):\n        return cls._engines[name]\n"
)

CROSS_MODULE: Dict[str, Tuple[Dict[str, str], List[Tuple[str, str]]]] = {
    # train.py never mentions fully_shard: it calls forward on what a sharding helper returns.
    "helper returns the sharded model": (
        {
            "pkg/__init__.py": "",
            "pkg/parallel.py": SHARD + "def apply_fsdp(model):\n    fully_shard(model)\n    return model\n",
            "train.py": "from pkg.parallel import apply_fsdp\nmodel = apply_fsdp(Net())\nmodel.forward(x)\n",
        },
        [("train.py", "FSD201")],
    ),
    "re-exported through the package": (
        {
            "pkg/__init__.py": "from .parallel import apply_fsdp\n",
            "pkg/parallel.py": SHARD + "def apply_fsdp(model):\n    fully_shard(model)\n",
            "train.py": "from pkg import apply_fsdp\nmodel = Net()\napply_fsdp(model)\nmodel.forward(x)\n",
        },
        [("train.py", "FSD201")],
    ),
    "module imported under an alias": (
        {
            "pkg/__init__.py": "",
            "pkg/parallel.py": SHARD + "def apply_fsdp(model):\n    fully_shard(model)\n",
            "train.py": "import pkg.parallel as par\nmodel = Net()\npar.apply_fsdp(model)\nmodel.forward(x)\n",
        },
        [("train.py", "FSD201")],
    ),
    "fully_shard re-exported under another name": (
        {
            "dist.py": "from torch.distributed.fsdp import fully_shard as shard_module\n",
            "train.py": "from dist import shard_module\nmodel = Net()\nshard_module(model)\nmodel.forward(x)\n",
        },
        [("train.py", "FSD201")],
    ),
    # ckpt.py mentions nothing of FSDP2; it is parsed because the analysis reaches it.
    "a third file's helper receives the sharded model": (
        {
            "ckpt.py": "import torch\n\ndef save_checkpoint(model):\n    torch.save(model.state_dict(), 'm.pt')\n",
            "train.py": SHARD + "from ckpt import save_checkpoint\nmodel = Net()\nfully_shard(model)\nsave_checkpoint(model)\n",
        },
        [("ckpt.py", "FSD301")],
    ),
    "the optimizer is built by a helper before sharding": (
        {
            "optim.py": "import torch\n\ndef build(model):\n    return torch.optim.AdamW(model.parameters())\n",
            "train.py": SHARD + "from optim import build\nmodel = Net()\nopt = build(model)\nfully_shard(model)\n",
        },
        [("train.py", "FSD202")],
    ),
    # b.py reaches a module-level model that a.py's helper shards, through a function of a third module.
    "a module-level model sharded elsewhere": (
        {
            "models.py": "MODEL = Net()\n\ndef get():\n    return MODEL\n",
            "a.py": SHARD + "from models import get\n\ndef setup():\n    fully_shard(get())\n",
            "b.py": "from models import get\nfrom a import setup\nsetup()\nget().forward(x)\n",
        },
        [("b.py", "FSD201")],
    ),
    "a method of a class in another module shards and returns": (
        {
            "trainer.py": SHARD + "class Trainer:\n    def setup(self, model):\n        self.model = fully_shard(model)\n        return self.model\n",
            "run.py": "from trainer import Trainer\nt = Trainer()\nm = t.setup(Net())\nm.forward(x)\n",
        },
        [("run.py", "FSD201")],
    ),
    # Helpers in files without FSDP2 names: their modules are entered only because what they
    # receive or return may hold shards, found in a later round of the facts.
    "a checkpoint helper two calls deep": (
        {
            "ckpt.py": "from store import write\n\ndef save_checkpoint(model, path):\n    write(model, path)\n",
            "store.py": "import torch\n\ndef write(module, path):\n    torch.save(module.state_dict(), path)\n",
            "train.py": SHARD + "from ckpt import save_checkpoint\nmodel = Net()\nfully_shard(model)\nsave_checkpoint(model, 'm.pt')\n",
        },
        [("store.py", "FSD301")],
    ),
    "a factory's model is sharded, then saved by a method of an object another factory built": (
        {
            "factory.py": "from models import Net\n\ndef build():\n    return Net()\n\ndef make_saver():\n    from saver import Saver\n    return Saver()\n",
            "models.py": "import torch\n\nclass Net(torch.nn.Module):\n    def __init__(self):\n        self.layers = torch.nn.ModuleList()\n",
            "saver.py": "import torch\n\nclass Saver:\n    def save(self, model):\n        torch.save(model.state_dict(), 'm.pt')\n",
            "train.py": SHARD + "from factory import build, make_saver\nmodel = build()\nfully_shard(model)\nsaver = make_saver()\nsaver.save(model)\n",
        },
        [("train.py", "FSD101"), ("saver.py", "FSD301")],
    ),
    "models from a factory list, sharded in a loop; an attribute of a built model": (
        {
            "zoo.py": "def build_all():\n    return [Net(), Net()]\n\ndef wrapped():\n    return Wrapper()\n",
            "train.py": SHARD + "import torch\nfrom zoo import build_all, wrapped\nfor m in build_all():\n    fully_shard(m)\n"
            "    m.forward(x)\nw = wrapped()\nopt = torch.optim.AdamW(w.inner.parameters())\nfully_shard(w.inner)\n",
        },
        [("train.py", "FSD201"), ("train.py", "FSD202")],
    ),
    # Only the parts of utils.py that lead to fully_shard are exported: `wrap` through
    # `shard_all`, `late_shard` from module code after a definition.
    "the sharding helpers of a utility module, through each other and module code": (
        {
            "utils.py": SHARD + "def unrelated(x):\n    return x\n\ndef shard_all(model):\n    fully_shard(model)\n    return model\n\n"
            "def wrap(model):\n    return shard_all(model)\n\nif True:\n    def late_shard(m):\n        fully_shard(m)\n",
            "a.py": "from utils import wrap, unrelated\nmodel = wrap(unrelated(Net()))\nmodel.forward(x)\n",
            "b.py": "from utils import late_shard\nm = Net()\nlate_shard(m)\nm.forward(x)\n",
        },
        [("a.py", "FSD201"), ("b.py", "FSD201")],
    ),
    # A class a decorator registers is reached from the registry alone: the trainer imports the
    # model's module lazily (models.py is parsed because it applies the registry's decorator),
    # or imports only the registry (train.py is kept because a sharding class is registered).
    "a model class registered by a decorator, its module never imported": (
        {
            "registry.py": REGISTER,
            "models.py": "from registry import MODELS\n\n@MODELS('toy')\nclass Toy:\n    def __init__(self):\n"
            "        self.net = Net()\n\n    def run(self, x):\n        return self.net.forward(x)\n",
            "train.py": SHARD + "import importlib\nfrom registry import MODELS\nimportlib.import_module('models')\n"
            "model = MODELS['toy']()\nfully_shard(model.net)\nmodel.run(x)\n",
        },
        [("models.py", "FSD201")],
    ),
    "a sharding class registered by a decorator, built from the registry": (
        {
            "registry.py": ENGINES,
            "engine.py": SHARD + "import torch\nfrom registry import Engines\n\n@Engines.register('fsdp2')\nclass Engine:\n"
            "    def init(self):\n        self.module = Net()\n        fully_shard(self.module)\n\n"
            "    def save(self):\n        torch.save(self.module.state_dict(), 'm.pt')\n",
            "train.py": "import engine\nfrom registry import Engines\nbuilt = Engines.lookup('fsdp2')()\nbuilt.init()\nbuilt.save()\n",
        },
        [("engine.py", "FSD301")],
    ),
    # steps.py mentions nothing of FSDP2: the step function its factory returns, stored on the
    # trainer, receives the sharded model where the trainer calls the attribute.
    "a step function a factory returns, stored on the trainer and called as its attribute": (
        {
            "steps.py": "def make_step(scale):\n    def step(model, x):\n        return model.forward(x) * scale\n\n    return step\n",
            "train.py": SHARD + "from steps import make_step\n\nclass Trainer:\n    def __init__(self, model):\n        self.model = model\n"
            "        self.step = make_step(2)\n\n    def fit(self, x):\n        self.step(self.model, x)\n\n"
            "model = Net()\nfully_shard(model)\nTrainer(model).fit(x)\n",
        },
        [("steps.py", "FSD201")],
    ),
    "a step function a factory of a module without FSDP2 names returns, called by name": (
        {
            "steps.py": "def make_step(scale):\n    def step(model, x):\n        return model.forward(x) * scale\n\n    return step\n",
            "train.py": SHARD + "from steps import make_step\n\nmodel = Net()\nfully_shard(model)\nstep = make_step(2)\nstep(model, x)\n",
        },
        [("steps.py", "FSD201")],
    ),
    "realistic package": (PROJECT, [("train.py", "FSD202"), ("train.py", "FSD201"), ("trainer/checkpoint.py", "FSD301")]),
    "realistic script beside unrelated and broken files": (
        {"train.py": TRAIN_SCRIPT, "util.py": "def f(:\n    pass\n", "plot.py": "import matplotlib\n"},
        [("train.py", "FSD202"), ("train.py", "FSD201"), ("train.py", "FSD301"), ("util.py", "FSD001")],
    ),
}


def _found(result) -> List[Tuple[str, int, str]]:
    return [(v.path.replace("\\", "/"), v.line, v.code) for v in result.violations]


def _scanned_and_everything(tmp_path, monkeypatch, files: Dict[str, str]) -> List[Tuple[str, int, str]]:
    """The findings with the prefilter, after checking they are those of parsing everything."""
    write_tree(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    scanned = lint_paths(["."], LintOptions(prefilter=True))
    everything = lint_paths(["."], LintOptions(prefilter=False))
    assert not scanned.internal_errors and not everything.internal_errors
    assert _found(scanned) == _found(everything)
    return _found(scanned)


@pytest.mark.parametrize("case", sorted(CROSS_MODULE))
def test_cross_module_findings_survive_the_prefilter(tmp_path, monkeypatch, case):
    files, expected = CROSS_MODULE[case]
    found = _scanned_and_everything(tmp_path, monkeypatch, files)
    assert {(path, code) for path, _, code in found} >= set(expected)


def test_importers_of_the_other_names_of_a_sharding_module_are_left_out():
    """A name leads to sharding only through its own code: importing a sharding module's other
    helpers (also as attributes of the module imported whole), or calling a method named like one
    of its sharding class's (`super().__init__()`), keeps no file."""
    files = {
        "utils.py": SHARD + "def unrelated(x):\n    return x\n\ndef shard_all(model):\n    fully_shard(model)\n\n"
        "class Wrapper:\n    def __init__(self, model):\n        fully_shard(model)\n\nclass Plain:\n    pass\n",
        "user.py": "from utils import unrelated, Plain\n\nclass Net(Plain):\n    def __init__(self):\n        super().__init__()\n        unrelated(self)\n",
        "sharder.py": "from utils import Wrapper\nWrapper(Net())\n",
        "whole.py": "import utils\nutils.unrelated(1)\n",
        "whole_sharder.py": "import utils as u\nu.shard_all(Net())\n",
    }
    data = {path: text.encode() for path, text in files.items()}
    names = {path: path[:-3] for path in files}
    scans = {path: prefilter.scan_file(path, data[path], names[path]) for path in files}
    assert prefilter.relevant_files(data, names, scans) == {"utils.py", "sharder.py", "whole_sharder.py"}


def test_every_rule_example_is_found_with_the_prefilter():
    """A rule that fires on something other than a sharded model must declare `SCAN_NAMES`, or
    the prefilter skips the files it would fire in; its examples show it here."""
    for code, rule in all_rules().items():
        for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID)):
            for index, example in enumerate(examples):
                scanned = lint_sources(example.files(), LintOptions(prefilter=True))
                everything = lint_sources(example.files(), LintOptions(prefilter=False))
                assert _found(scanned) == _found(everything), f"{code} {kind} example {index}: declare SCAN_NAMES?"


def test_jobs_and_cache_find_the_same(tmp_path, monkeypatch):
    from fsdp_lint.engine import parallel

    write_tree(tmp_path, {**PROJECT, "script.py": TRAIN_SCRIPT})
    monkeypatch.chdir(tmp_path)
    reference = _found(lint_paths(["."], LintOptions(jobs=1)))
    monkeypatch.setattr(parallel, "MIN_LINES", 0)  # fork even for this small tree
    assert _found(lint_paths(["."], LintOptions(jobs=2))) == reference
    cache = str(tmp_path / "cache")
    assert _found(lint_paths(["."], LintOptions(cache_dir=cache))) == reference  # cold, stores
    assert _found(lint_paths(["."], LintOptions(cache_dir=cache))) == reference  # whole-run hit
    (tmp_path / "tools" / "plot.py").write_text("import matplotlib\n# changed\n")
    assert _found(lint_paths(["."], LintOptions(cache_dir=cache))) == reference  # analysis reused


def test_cache_sees_a_change_in_a_helper_module(tmp_path, monkeypatch):
    """ckpt.py does not mention FSDP2; its edit changes findings only through the analysis."""
    files, _ = CROSS_MODULE["a third file's helper receives the sharded model"]
    write_tree(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    cache = str(tmp_path / "cache")
    assert ("ckpt.py", 4, "FSD301") in _found(lint_paths(["."], LintOptions(cache_dir=cache)))
    (tmp_path / "ckpt.py").write_text("import torch\n\ndef save_checkpoint(model):\n    print(model)\n")
    assert _found(lint_paths(["."], LintOptions(cache_dir=cache))) == []
    (tmp_path / "new_helper.py").write_text("def f(:\n")
    assert _found(lint_paths(["."], LintOptions(cache_dir=cache))) == [("new_helper.py", 1, "FSD001")]


def test_cache_sees_a_class_registered_by_a_new_file(tmp_path, monkeypatch):
    """A file that applies a registry's decorator changes what the registry holds, parsed or not:
    a cached analysis that read the registry is not reused once one is added."""
    files, _ = CROSS_MODULE["a model class registered by a decorator, its module never imported"]
    write_tree(tmp_path, {path: text for path, text in files.items() if path != "models.py"})
    monkeypatch.chdir(tmp_path)
    cache = str(tmp_path / "cache")
    assert _found(lint_paths(["."], LintOptions(cache_dir=cache))) == []
    (tmp_path / "models.py").write_text(files["models.py"])
    assert _found(lint_paths(["."], LintOptions(cache_dir=cache))) == [("models.py", 9, "FSD201")]


DCP = "import torch.distributed as dist\nimport torch.distributed.checkpoint as dcp\n"

# Files kept only because they mention a rule's SCAN_NAMES are screened (`Rule.may_fire_in`):
# each case must find with the screen what the full analysis finds.
SCREENED: Dict[str, Tuple[Dict[str, str], List[Tuple[str, str]]]] = {
    "a rank test in the same function": (
        {"ckpt.py": DCP + "def save(state):\n    if dist.get_rank() == 0:\n        dcp.save(state, checkpoint_id='c')\n"},
        [("ckpt.py", "FSD206")],
    ),
    "the rank flag bound at module level": (
        {"ckpt.py": DCP + "LEADER = dist.get_rank() == 0\n\ndef save(state):\n    ok = LEADER\n    if LEADER:\n        dcp.save(state, checkpoint_id='c')\n"},
        [("ckpt.py", "FSD206")],
    ),
    "an early return on the other ranks": (
        {"ckpt.py": DCP + "def save(state, rank):\n    if rank != 0:\n        return\n    dcp.save(state, checkpoint_id='c')\n"},
        [("ckpt.py", "FSD206")],
    ),
    "a rank-zero decorator": (
        {"ckpt.py": DCP + "from lightning.pytorch.utilities import rank_zero_only\n\n@rank_zero_only\ndef save(state):\n    dcp.save(state, checkpoint_id='c')\n"},
        [("ckpt.py", "FSD206")],
    ),
    "an aliased import": (
        {"ckpt.py": DCP + "from torch.distributed.checkpoint import save as dcp_save\n\nclass Saver:\n    def save(self, state):\n        if self.is_main_process:\n            dcp_save(state, checkpoint_id='c')\n"},
        [("ckpt.py", "FSD206")],
    ),
    "an alias bound with a comment after it": (
        {"ckpt.py": DCP + "write = dcp.save  # the DCP entry point\n\ndef save(state, rank):\n    if rank == 0:\n        write(state, checkpoint_id='c')\n"},
        [("ckpt.py", "FSD206")],
    ),
    "a rank name spelled in full-width letters, which Python reads as `rank`": (
        {"ckpt.py": DCP + "def save(state, \uff52\uff41\uff4e\uff4b):\n    if \uff52\uff41\uff4e\uff4b == 0:\n        dcp.save(state, checkpoint_id='c')\n"},
        [("ckpt.py", "FSD206")],
    ),
    "a full_tensor in a conditional expression": (
        {"gather.py": "import torch.distributed as dist\n\ndef full(t):\n    return t.full_tensor() if dist.get_rank() == 0 else None\n"},
        [("gather.py", "FSD206")],
    ),
    # clip_grad_norm_ is a collective only over sharded parameters: no SCAN_NAMES, the analysis
    # reaches the helper because it is given the sharded model.
    "clip_grad_norm_ in a helper given the sharded model": (
        {
            "helpers.py": "import torch\n\ndef clip(model, rank):\n    if rank == 0:\n        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n",
            # (the rank passed as a constant would be the same on every rank: `clip(model, 0)` is clean)
            "train.py": SHARD + "import torch.distributed as dist\nfrom helpers import clip\nmodel = Net()\nfully_shard(model)\nclip(model, dist.get_rank())\n",
        },
        [("helpers.py", "FSD206")],
    ),
    "lines ended by a carriage return alone, as Python allows": (
        {"ckpt.py": (DCP + "def save(state):\n    x = 1\n    if dist.get_rank() == 0:\n        dcp.save(state, checkpoint_id='c')\n").replace("\n", "\r")},
        [("ckpt.py", "FSD206")],
    ),
    "gradient sync left off": (
        {"step.py": "def step(model, optimizer, batches):\n    model.set_requires_gradient_sync(False)\n    for b in batches:\n        model(b).sum().backward()\n    optimizer.step()\n"},
        [("step.py", "FSD205")],
    ),
    # Screened out: the collective is called on every rank, or the rank test is elsewhere.
    "no rank test around the call": (
        {"ckpt.py": DCP + "def save(state, rank):\n    dcp.save(state, checkpoint_id=f'c{rank}')\n\ndef log(rank):\n    if rank == 0:\n        print('saved')\n",
         "planner.py": "from torch.distributed.checkpoint.metadata import Metadata\n\ndef plan(rank):\n    if rank == 0:\n        return Metadata()\n\ndef load(x):\n    return x\n"},
        [],
    ),
}


@pytest.mark.parametrize("case", sorted(SCREENED))
def test_screened_files_keep_their_findings(tmp_path, monkeypatch, case):
    files, expected = SCREENED[case]
    found = _scanned_and_everything(tmp_path, monkeypatch, files)
    assert {(path, code) for path, _, code in found} == set(expected)


def test_the_screen_leaves_out_files_where_no_rule_can_fire():
    """What the screen is for: a library that mentions DCP everywhere (DCP itself) but calls no
    collective under a rank test is not parsed by astroid."""
    from fsdp_lint.engine.analysed_run import rule_config, scan
    from fsdp_lint.engine.tree_analysis import SourceTree, relevant_paths

    files, _ = SCREENED["no rank test around the call"]
    kept, _ = SCREENED["a rank test in the same function"]
    sources = {**files, "kept.py": kept["ckpt.py"]}
    tree = SourceTree(sources, {path: path[:-3] for path in sources})
    config = rule_config(LintOptions())
    scan(tree, config, jobs=1)
    assert relevant_paths(tree, config) == {"kept.py"}


def test_every_rank_name_contains_a_rank_word():
    """The screen drops a scope with no identifier containing a `RANK_WORDS` entry; the names
    `rank_only_branch` recognises must all contain one, or the screen would drop real findings."""
    from fsdp_lint.analysis import conditions

    alternatives = conditions._RANK_NAME.pattern.strip("^$").removeprefix("_?(").removesuffix(")").split("|")
    names = set(alternatives) | conditions._RANK_FUNCTIONS | conditions._RANK_ZERO_DECORATORS
    assert len(alternatives) > 10
    assert not {name for name in names if not any(word in name for word in conditions.RANK_WORDS)}
