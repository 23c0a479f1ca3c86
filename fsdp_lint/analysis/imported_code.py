"""What rules read of modules of the tree that the flows need not enter (the bases of a class, the
setup a script imports, a module-level value a sharding call is given): computed once, after the
facts and before the rule pass, because only then may the analysis parse a module.

The rule pass may run in forked workers. A module one of them parsed would be an input of the
result that this process never learns of, so a result cached from it would survive an edit of that
module (a stale answer). So the engine collects these facts first, parsing what they need where
it records every file it reads, and refuses any parse once the rules run
(`fsdp_lint.engine.tree_analysis`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, Iterable, Iterator, Optional, Tuple

from astroid import nodes

from fsdp_lint.analysis.call_arguments import call_argument
from fsdp_lint.analysis.names import FULLY_SHARD, relative_module
from fsdp_lint.analysis.node_listing import nodes_within

if TYPE_CHECKING:
    from fsdp_lint.analysis.project import Project

_INIT_PROCESS_GROUP = frozenset({"torch.distributed.init_process_group", "torch.distributed.distributed_c10d.init_process_group"})
_INIT_DEVICE_MESH = frozenset({"torch.distributed.device_mesh.init_device_mesh", "torch.distributed.init_device_mesh"})
# How far a script's imports are followed for its setup: the script, the modules it imports and theirs.
_SETUP_DEPTH = 2
# What a module must spell to set up on a GPU: a call under another name (a module of the tree
# re-exporting `init_process_group` as `init_pg`) goes unseen; a walk of every module costs more.
_SETUP_NAMES = (b"init_process_group", b"init_device_mesh")


@dataclass
class ImportedCode:
    """The setup path of each script that creates an NCCL process group or a CUDA device mesh on
    the GPU it selected, and the module-level values that sharding calls receive through imported
    names."""

    _setup: Dict[str, Tuple[nodes.Module, ...]] = field(default_factory=dict)
    _values: Dict[str, Optional[nodes.NodeNG]] = field(default_factory=dict)

    def setup_path(self, script: nodes.Module) -> Optional[Tuple[nodes.Module, ...]]:
        """The script and the modules of the tree it imports, and theirs: where its process may
        select its GPU. Known for a script with a call that `uses_selected_gpu` by its own name."""
        return self._setup.get(script.name)

    def value(self, qname: Optional[str]) -> Optional[nodes.NodeNG]:
        """What a module-level name of the tree is bound to, when one plain assignment binds it
        (`BF16 = MixedPrecisionPolicy(...)`), for the names that keyword arguments of sharding
        calls import (calls that name the sharding function); None otherwise."""
        return self._values.get(qname) if qname else None


def collect(project: "Project", parsed: Iterable[nodes.Module], analysed: Iterable[nodes.Module]) -> ImportedCode:
    """The facts for the scripts among the `parsed` modules and for the sharding calls of the
    `analysed` ones (every module that calls a sharding function by name is one), parsing the
    modules of the tree they need: one walk of each such module's calls."""
    setup: Dict[str, Tuple[nodes.Module, ...]] = {}
    values: Dict[str, Optional[nodes.NodeNG]] = {}
    sharding = {module.name for module in analysed}
    shard_names = tuple(name.encode() for name in {qname.rsplit(".", 1)[-1] for qname in FULLY_SHARD} | project.apis.scan_names)
    for module in list(parsed):  # loading adds to the project's modules
        if project.entered is None or module.name in project.entered:  # the classes of the objects the flows know
            for cls in nodes_within(module, nodes.ClassDef):  # rules read their facts, from their bases too
                project.class_facts(cls.qname())
        script = is_script(module) and _spells(module, _SETUP_NAMES)
        shards = module.name in sharding and _spells(module, shard_names)
        if not (script or shards):
            continue
        uses_gpu = False
        for call in nodes_within(module, nodes.Call):
            qname = project.qualified_name(call.func)
            uses_gpu = uses_gpu or script and uses_selected_gpu(call, qname)
            if shards and _shards(project, qname):
                for name in _imported_keyword_names(project, call):
                    imported = project.qualified_name(name)
                    if imported and imported not in values:
                        values[imported] = _module_value(project, imported)
        if uses_gpu:
            setup[module.name] = _imported_tree_modules(project, module)
    return ImportedCode(setup, values)


def _spells(module: nodes.Module, names: Tuple[bytes, ...]) -> bool:
    """Whether the module's text holds one of `names` (True when its text is not known)."""
    return module.file_bytes is None or any(name in module.file_bytes for name in names)


def is_script(module: nodes.Module) -> bool:
    """Whether the module runs as a program (`if __name__ == "__main__":`)."""
    for node in module.body:
        if isinstance(node, nodes.If) and "__name__" in node.test.as_string() and "__main__" in node.test.as_string():
            return True
    return False


def uses_selected_gpu(call: nodes.Call, qname: Optional[str]) -> bool:
    """Whether `call` (naming `qname`) sets up on the GPU the process selected, GPU 0 unless it
    selected one: an NCCL process group without `device_id=`, or a CUDA device mesh."""
    return creates_nccl_group_without_device(call, qname) or creates_cuda_mesh(call, qname)


def creates_nccl_group_without_device(call: nodes.Call, qname: Optional[str]) -> bool:
    if qname not in _INIT_PROCESS_GROUP or any(k.arg == "device_id" for k in call.keywords or []):
        return False
    backend = call_argument(call, 0, "backend")
    return isinstance(backend, nodes.Const) and isinstance(backend.value, str) and "nccl" in backend.value


def creates_cuda_mesh(call: nodes.Call, qname: Optional[str]) -> bool:
    device = call_argument(call, 0, "device_type")
    return qname in _INIT_DEVICE_MESH and isinstance(device, nodes.Const) and device.value == "cuda"


def _imported_tree_modules(project: "Project", module: nodes.Module) -> Tuple[nodes.Module, ...]:
    found: Dict[str, nodes.Module] = {module.name: module}
    frontier = [module]
    for _ in range(_SETUP_DEPTH):
        following = []
        for current in frontier:
            for name in _imported_names(current):
                imported = _module_of(project, name)
                if imported is not None and imported.name not in found:
                    found[imported.name] = imported
                    following.append(imported)
        frontier = following
    return tuple(found.values())


def _imported_names(module: nodes.Module) -> Iterator[str]:
    """Dotted names a module imports (`import a.b`, `from a import b` gives `a` and `a.b`)."""
    for node in nodes_within(module, (nodes.Import, nodes.ImportFrom)):
        if isinstance(node, nodes.Import):
            yield from (name for name, _ in node.names)
        else:
            base = relative_module(module, node.modname, node.level)
            yield base
            yield from (f"{base}.{name}" for name, _ in node.names if name != "*")


def _module_of(project: "Project", name: str) -> Optional[nodes.Module]:
    """The module of the tree an imported dotted name lies in: its longest prefix that is one."""
    parts = name.split(".")
    for index in range(len(parts), 0, -1):
        module = project.module(".".join(parts[:index]))
        if module is not None:
            return module
    return None


def _imported_keyword_names(project: "Project", call: nodes.Call) -> Iterator[nodes.Name]:
    """The names bound by `from ... import` that `call` passes by keyword (`mp_policy=BF16`)."""
    for keyword in call.keywords or ():
        if isinstance(keyword.value, nodes.Name) and isinstance(project.binding(keyword.value), nodes.ImportFrom):
            yield keyword.value


def _shards(project: "Project", qname: Optional[str]) -> bool:
    return qname in FULLY_SHARD or project.apis.shards(qname)


def _module_value(project: "Project", qname: str) -> Optional[nodes.NodeNG]:
    module_name, _, name = qname.rpartition(".")
    module = project.module(module_name) if module_name else None
    bindings = module.locals.get(name, ()) if module is not None else ()
    if len(bindings) == 1 and isinstance(bindings[0], nodes.AssignName) and isinstance(bindings[0].parent, nodes.Assign):
        return bindings[0].parent.value
    return None
