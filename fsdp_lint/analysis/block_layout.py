"""Repeated blocks: the layout that wants one FSDP unit per block, and whether a `fully_shard`
target is the model or one unit of a larger plan.

FSD101's static side and its runtime twin (`runtime_checks/fsd101_root_only_sharding.py`) must
agree on what repeated blocks are: two or more children of one class in a `ModuleList`,
`ModuleDict` or `Sequential` anywhere in the model, each a block, that is a module that owns
parameters and holds modules of its own (a transformer layer; an `nn.Linear` is a layer, and
`Sequential(Linear, ReLU(), Linear)` an MLP, not a model of blocks). Here the same is read from
the classes of the tree: what their methods store on `self`, through their tree bases and into
the tree classes they hold; a class of the tree is a block unless what it stores on `self`
shows no module or no parameter (a layer of `nn.Parameter`s). A container whose
children are written out is counted (`Sequential(SiLU(), Linear(...))` holds no block); one
filled by a comprehension repeats the class it builds, one given a list its function writes out
(`sequence += [nn.Conv2d(...), nn.LeakyReLU(0.2)]` in a loop, then `Sequential(*sequence)`)
holds what is written there, and one filled from any other variable is a loop over blocks.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Set, Tuple

from astroid import nodes

from fsdp_lint.analysis.flow import Flow
from fsdp_lint.analysis.known_apis import (
    BLOCK_CONTAINERS, COMPOSITE_LAYERS, LEAF_MODULE_PREFIX, MODULE_CLASSES, PARAMETERISED_LEAVES, PRETRAINED_MODEL, REGISTERED_KINDS,
    is_parameter_call, written_children,
)
from fsdp_lint.analysis.node_listing import nodes_within
from fsdp_lint.analysis.project import Project
from fsdp_lint.analysis.values import Obj

_MAX_NESTING = 4  # tree classes held inside tree classes, followed this deep
_UNKNOWN_CHILD = "?"  # a child whose class is not known: one of its kind, never a repetition


def holds_repeated_blocks(project: Project, qname: Optional[str]) -> bool:
    """Whether a module of class `qname` holds repeated blocks anywhere below it (a pretrained
    transformer does); False for a class the tree does not define."""
    if qname == PRETRAINED_MODEL:
        return True
    return _holds(project, qname, set(), 0)


def part_of_larger_plan(flow: Flow, target: Obj) -> bool:
    """Whether sharding `target`, a submodule (`self.final_layer`, or the block a constructor
    stored as `self.block`, known here as `model.block`), makes one unit among others rather
    than the whole model: something else inside a module that holds it is sharded on this walk,
    before or after (its sibling blocks, or the holder itself). A plain object holding two
    models (a step engine given the policy and the reference model, `Flow.is_module`) is no
    model: FSDP never makes it a unit, and each model it holds stays one whole."""
    for name in flow.names_of(target):
        for length in range(len(name.attrs)):
            holder = Obj(name.root, name.attrs[:length])
            if any(flow.contains(holder, e.target) and not flow.contains(target, e.target) for e in flow.events) and flow.is_module(holder):
                return True
    return False


def _holds(project: Project, qname: Optional[str], seen: Set[str], depth: int) -> bool:
    cls = project.resolve_callable(qname) if qname else None
    if not isinstance(cls, nodes.ClassDef) or qname in seen or depth > _MAX_NESTING:
        return False
    seen.add(qname)
    for value in _assigned_on_self([cls] + project.tree_bases(cls)):
        if not isinstance(value, nodes.Call):
            continue
        called = project.qualified_name(value.func)
        if called in BLOCK_CONTAINERS:
            if _repeats(project, value):
                return True
        elif called and not called.startswith(LEAF_MODULE_PREFIX) and _holds(project, called, seen, depth + 1):
            return True
    return False


def _assigned_on_self(classes: List[nodes.ClassDef]) -> Iterator[nodes.NodeNG]:
    """The values the methods of `classes` assign to `self.<attr>`."""
    for klass in classes:
        for assign in nodes_within(klass, (nodes.Assign, nodes.AnnAssign)):
            targets = assign.targets if isinstance(assign, nodes.Assign) else [assign.target]
            if assign.value is not None and any(_on_self(t) for t in targets):
                yield assign.value


def _on_self(target: nodes.NodeNG) -> bool:
    return isinstance(target, nodes.AssignAttr) and isinstance(target.expr, nodes.Name) and target.expr.name == "self"


def _repeats(project: Project, container: nodes.Call) -> bool:
    """Whether a `ModuleList`/`ModuleDict`/`Sequential(...)` call holds two or more blocks of
    one class."""
    children = written_children(container, project.qualified_name(container.func) or "")
    if children is None:
        looped = _looped_child(container)
        listed = _listed_children(container) if looped is None else None
        if listed is None:
            # filled by a loop: blocks, unless what the comprehension builds is no block
            return looped is None or _is_block(project, _child_class(project, looped), looped)
        return _repeated_block(project, listed)
    return _repeated_block(project, [(child, False) for child in children])


def _repeated_block(project: Project, children: List[Tuple[nodes.NodeNG, bool]]) -> bool:
    """Whether two or more of `children` (each with whether a loop adds it, once a turn) are
    blocks of one class."""
    counts: Dict[str, int] = {}
    for child, in_loop in children:
        kind = _child_class(project, child)
        if kind != _UNKNOWN_CHILD and _is_block(project, kind, child):
            counts[kind] = counts.get(kind, 0) + (2 if in_loop else 1)
    return any(count >= 2 for count in counts.values())


def _listed_children(container: nodes.Call) -> Optional[List[Tuple[nodes.NodeNG, bool]]]:
    """The modules a container given one list of its function is filled with
    (`Sequential(*sequence)`), each with whether a loop adds it, where the function writes them
    all out: list displays bound to the name, added with `+=`, `append` or `extend` (a
    discriminator's `sequence += [nn.Conv2d(...), nn.LeakyReLU(0.2)]` in a loop holds layers, no
    blocks); None where anything else binds, reads or fills it."""
    given = container.args[0] if len(container.args) == 1 else None
    given = given.value if isinstance(given, nodes.Starred) else given
    scope = container.scope()
    if not isinstance(given, nodes.Name) or not isinstance(scope, nodes.FunctionDef):
        return None
    listed: List[Tuple[nodes.NodeNG, bool]] = []
    for use in nodes_within(scope, (nodes.Name, nodes.AssignName), skip=(nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)):
        if use.name != given.name or use is given:
            continue
        added = _added_elements(use)
        if added is None:
            return None
        in_loop = any(isinstance(n, (nodes.For, nodes.While)) for n in _ancestors_within(use, scope))
        listed.extend((element, in_loop) for element in added)
    return listed


def _added_elements(use: nodes.NodeNG) -> Optional[List[nodes.NodeNG]]:
    """The elements a use of a list's name adds to it (`name = [...]`, `name += [...]`,
    `name.append(x)`, `name.extend([...])`), or None for any other use."""
    parent = use.parent
    if isinstance(use, nodes.AssignName):
        bound = parent.value if isinstance(parent, nodes.Assign) and parent.targets == [use] else None
        if isinstance(parent, nodes.AugAssign) and parent.op == "+=":
            bound = parent.value
        return list(bound.elts) if isinstance(bound, (nodes.List, nodes.Tuple)) else None
    call = parent.parent if isinstance(parent, nodes.Attribute) else None
    if not isinstance(call, nodes.Call) or call.func is not parent or len(call.args) != 1 or call.keywords:
        return None
    if parent.attrname == "append":
        return [call.args[0]]
    if parent.attrname == "extend" and isinstance(call.args[0], (nodes.List, nodes.Tuple)):
        return list(call.args[0].elts)
    return None


def _ancestors_within(node: nodes.NodeNG, scope: nodes.NodeNG) -> Iterator[nodes.NodeNG]:
    parent = node.parent
    while parent is not None and parent is not scope:
        yield parent
        parent = parent.parent


def _looped_child(container: nodes.Call) -> Optional[nodes.Call]:
    """The module a comprehension given to the container builds for each child
    (`ModuleList(Block(d) for _ in range(n))`, `Sequential(*[Linear(d, d) for ...])`), or None
    when it is not written there."""
    if len(container.args) != 1:
        return None
    given = container.args[0]
    given = given.value if isinstance(given, nodes.Starred) else given
    if isinstance(given, (nodes.ListComp, nodes.GeneratorExp)) and isinstance(given.elt, nodes.Call):
        return given.elt
    return None


def _child_class(project: Project, child: nodes.NodeNG) -> str:
    if not isinstance(child, nodes.Call):
        return _UNKNOWN_CHILD
    return project.qualified_name(child.func) or _UNKNOWN_CHILD


def _is_block(project: Project, kind: str, child: nodes.Call) -> bool:
    """Whether a child is a block: a module with children of its own that owns parameters. Of
    torch.nn's layers, those whose parameters are their children's (`COMPOSITE_LAYERS`); a
    nested container holds its children; a class of the tree by what its methods store on
    `self` (one that stores only `nn.Parameter`s is a layer)."""
    if kind.startswith(LEAF_MODULE_PREFIX) and kind not in BLOCK_CONTAINERS:
        return kind.rsplit(".", 1)[-1] in COMPOSITE_LAYERS
    if kind in BLOCK_CONTAINERS:
        return _owns_parameters(project, kind, child, 0)
    stored = _stored_on_self(project, kind)
    if stored is None:
        return True
    return any(_may_be_module(project, value) for value in stored) and _stores_parameters(project, stored, 1)


def _owns_parameters(project: Project, kind: str, child: nodes.Call, depth: int) -> bool:
    """A torch.nn layer owns parameters when it is a parameterised one, a nested container when
    one of its children does, a class of the tree when it stores a parameter or a module that
    owns some; anything unknown is taken to own some."""
    if depth > _MAX_NESTING:
        return True
    if kind in BLOCK_CONTAINERS:
        children = written_children(child, kind)
        return children is None or any(
            _owns_parameters(project, _child_class(project, c), c, depth + 1) for c in children if isinstance(c, nodes.Call)
        )
    if kind.startswith(LEAF_MODULE_PREFIX):
        return kind.rsplit(".", 1)[-1] in PARAMETERISED_LEAVES | COMPOSITE_LAYERS
    stored = _stored_on_self(project, kind)
    return stored is None or _stores_parameters(project, stored, depth + 1)


def _stores_parameters(project: Project, stored: List[nodes.NodeNG], depth: int) -> bool:
    """Whether values stored on `self` include a parameter or a module that may own some."""
    for value in stored:
        if _is_parameter(project, value):
            return True
        if _may_be_module(project, value):
            kind = project.qualified_name(value.func) if isinstance(value, nodes.Call) else None
            if kind is None or _owns_parameters(project, kind, value, depth):
                return True
    return False


def _may_be_module(project: Project, value: nodes.NodeNG) -> bool:
    """Whether a value stored on `self` may be a module: not a literal, a parameter, or a tensor
    a torch function builds (`torch.zeros(...)`); an argument or a call of unknown code may be."""
    if isinstance(value, (nodes.Const, nodes.List, nodes.Tuple, nodes.Dict, nodes.Set, nodes.JoinedStr, nodes.BinOp)):
        return False
    if not isinstance(value, nodes.Call):
        return True
    kind = project.qualified_name(value.func)
    return not (_is_parameter(project, value) or kind and kind.startswith("torch.") and not kind.startswith(LEAF_MODULE_PREFIX))


def _stored_on_self(project: Project, kind: str) -> Optional[List[nodes.NodeNG]]:
    """The values the methods of class `kind` and its tree bases assign to `self.<attr>`, or
    None where what the instances hold is not all written there: a class outside the tree, a
    base outside the tree other than `nn.Module`, or children added by `add_module`/`setattr`."""
    cls = project.resolve_callable(kind)
    if not isinstance(cls, nodes.ClassDef):
        return None
    classes = [cls] + project.tree_bases(cls)
    for klass in classes:
        for base in map(project.qualified_name, klass.bases):
            if base not in MODULE_CLASSES and not (base and isinstance(project.resolve_callable(base), nodes.ClassDef)):
                return None
    for klass in classes:
        for call in nodes_within(klass, nodes.Call):
            func = call.func
            if isinstance(func, nodes.Attribute) and REGISTERED_KINDS.get(func.attrname) == "submodule" or isinstance(func, nodes.Name) and func.name == "setattr":
                return None
    return list(_assigned_on_self(classes))


def _is_parameter(project: Project, value: nodes.NodeNG) -> bool:
    return is_parameter_call(value, project.qualified_name)
